package access

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/platform/platform/internal/platform"
)

// Step-up (D-step-up, RFC 9470): the console's most dangerous actions
// (operations marked StepUp: deleting a customer, transferring ownership,
// resolving a database URI) need a caller whose access token shows a
// recent sign-in with a second factor: auth_time within MaxAge and acr
// urn:platform:acr:mfa (or the stronger urn:platform:acr:phr). Without one
// the answer is 401 with WWW-Authenticate: Bearer
// error="insufficient_user_authentication" and the acr_values and max_age
// to ask the identity provider for; the console app signs in again with
// them and retries.

// ACRMFA and ACRPhishingResistant are the authentication context classes
// of the identity provider (idp.ACRMFA, idp.ACRPhishingResistant).
const (
	ACRMFA               = "urn:platform:acr:mfa"
	ACRPhishingResistant = "urn:platform:acr:phr"
)

// StepUp is the demand of the dangerous actions: a sign-in no older than
// MaxAge with a second factor. The zero StepUp demands nothing (off).
type StepUp struct {
	MaxAge time.Duration
}

// SetStepUp sets the demand of the dangerous actions; call it before the
// service is used.
func (s *Service) SetStepUp(p StepUp) { s.stepUp = p }

// StepUpPolicy is the demand of the dangerous actions.
func (s *Service) StepUpPolicy() StepUp { return s.stepUp }

// StepUpRequired is the refusal of a dangerous action to a caller whose
// sign-in is too old or too weak: EUNAUTHORIZED, with what to ask for.
type StepUpRequired struct {
	err *platform.Error
	// ACRValues and MaxAge are what a new authorization request asks for.
	ACRValues string
	MaxAge    int
}

func (e *StepUpRequired) Error() string { return e.err.Error() }
func (e *StepUpRequired) Unwrap() error { return e.err }

// Challenge is the WWW-Authenticate of the refusal (RFC 9470 section 3).
func (e *StepUpRequired) Challenge() string {
	return fmt.Sprintf(`Bearer realm="api", error="insufficient_user_authentication", `+
		`error_description="a recent sign-in with a second factor is required", acr_values="%s", max_age=%d`, e.ACRValues, e.MaxAge)
}

// AsStepUp returns the step-up refusal err is, or nil.
func AsStepUp(err error) *StepUpRequired {
	var e *StepUpRequired
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// CheckStepUp answers nil when c signed in recently enough with a second
// factor (or step-up is off), and the *StepUpRequired refusal otherwise.
func (s *Service) CheckStepUp(c *Caller) error {
	p := s.stepUp
	if p.MaxAge <= 0 {
		return nil
	}
	if !c.AuthTime.IsZero() && s.now().Sub(c.AuthTime) <= p.MaxAge && strongSignIn(c.ACR, c.AMR) {
		return nil
	}
	return &StepUpRequired{err: platform.Errorf(platform.EUNAUTHORIZED, "this action needs a recent sign-in with a second factor"),
		ACRValues: ACRMFA, MaxAge: int(p.MaxAge / time.Second)}
}

// strongSignIn reports whether a sign-in of class acr and methods amr had
// a second factor (or a passkey).
func strongSignIn(acr string, amr []string) bool {
	return acr == ACRMFA || acr == ACRPhishingResistant || slices.Contains(amr, "mfa") || slices.Contains(amr, "hwk")
}
