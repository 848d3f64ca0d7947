package idp

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/platform"
)

// upstreamError is a failed exchange with an external provider, described
// by what the platform knows of it: the step, the provider, and the kind of
// failure. The libraries that talk to external providers put the provider's
// response bodies into their error messages; those never reach the log.
type upstreamError struct {
	stage, idpID, kind string
	err                error
}

func (e *upstreamError) Error() string {
	return fmt.Sprintf("%s with identity provider %s failed: %s", e.stage, e.idpID, e.kind)
}

func (e *upstreamError) Unwrap() error { return e.err }

// upstream wraps err of an exchange with provider x at stage.
func upstream(stage string, x *platform.ExternalIDP, err error) error {
	return &upstreamError{stage: stage, idpID: x.ID, kind: describeUpstream(err), err: err}
}

func describeUpstream(err error) string {
	var re *oauth2.RetrieveError
	var expired *gooidc.TokenExpiredError
	switch {
	case errors.As(err, &re):
		kind := "the provider refused"
		if re.Response != nil {
			kind = fmt.Sprintf("the provider answered HTTP %d", re.Response.StatusCode)
		}
		if c := oauthCode(re.ErrorCode); c != "" {
			kind += " " + c
		}
		return kind
	case errors.As(err, &expired):
		return "the id_token has expired"
	case !errors.Is(err, egress.ErrBlocked) && strings.Contains(err.Error(), "egress: "):
		// go-oidc formats the key set's error with %v, losing the chain; the
		// egress package's own words are still in the text
		return egress.Describe(egress.ErrBlocked)
	}
	return egress.Describe(err)
}

var oauthCodeRE = regexp.MustCompile(`^[a-z_]{1,64}$`)

// oauthCode returns an RFC 6749 error code as sent, or "" when the value is
// not shaped like one (it came from outside and goes to the log).
func oauthCode(s string) string {
	if oauthCodeRE.MatchString(s) {
		return s
	}
	return ""
}
