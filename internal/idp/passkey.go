package idp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// passkeys holds the WebAuthn relying party and everything a passkey
// does: sign-in alone or as second factor, enrolment, rename and removal on
// the account page, and confirmation with a passkey.
type passkeys struct {
	*core
	webauthn *webauthn.WebAuthn // nil when the issuer cannot be a relying party
	login    *loginPages
	account  *accountPages
}

// Passkeys (WebAuthn, on go-webauthn): the relying-party id is the issuer's
// host, attestation none, user verification required, discoverable
// credentials. A passkey sign-in proves possession of the key and the
// user's verification on the device, so it counts as multi-factor
// (amr hwk and mfa, D-passkeys).
const (
	ceremonyLifetime = 5 * time.Minute
	passkeyNameMax   = 64
	// passkeysMax is how many passkeys one account holds: enough for every
	// device a person uses, and a bound on what a stolen session can add.
	passkeysMax = 20

	purposeLogin    = "login"    // first factor, discoverable
	purposeMFA      = "mfa"      // second factor after a password
	purposeRegister = "register" // enrolment on the account page
)

var (
	amrPasskey = []string{"hwk", "mfa"}

	errPasskeyFailed = errors.New("idp: passkey not accepted")
)

// newWebAuthn configures the relying party for the issuer. An issuer whose
// host is an IP address cannot be a relying party (WebAuthn needs a domain):
// passkeys are then off, and nil is returned.
func newWebAuthn(issuer string) *webauthn.WebAuthn {
	u, err := url.Parse(issuer)
	if err != nil || u.Hostname() == "" || net.ParseIP(u.Hostname()) != nil {
		return nil
	}
	w, err := webauthn.New(&webauthn.Config{
		RPID:          u.Hostname(),
		RPDisplayName: u.Hostname(),
		RPOrigins:     []string{u.Scheme + "://" + u.Host},
		AuthenticatorSelection: protocol.AuthenticatorSelection{
			ResidentKey:      protocol.ResidentKeyRequirementRequired,
			UserVerification: protocol.VerificationRequired,
		},
		AttestationPreference: protocol.PreferNoAttestation,
		Timeouts: webauthn.TimeoutsConfig{
			Login:        webauthn.TimeoutConfig{Enforce: true, Timeout: ceremonyLifetime, TimeoutUVD: ceremonyLifetime},
			Registration: webauthn.TimeoutConfig{Enforce: true, Timeout: ceremonyLifetime, TimeoutUVD: ceremonyLifetime},
		},
	})
	if err != nil {
		slog.Warn("passkeys are off: the issuer is no WebAuthn relying party", "err", err)
		return nil
	}
	return w
}

// passkeyUser is a user with their passkeys, as the WebAuthn library sees
// them. The user handle is the user's id.
type passkeyUser struct {
	u    *platform.User
	rows []store.Passkey
	cred []webauthn.Credential
}

func (pu *passkeyUser) WebAuthnID() []byte                         { return []byte(pu.u.ID) }
func (pu *passkeyUser) WebAuthnName() string                       { return pu.u.Email }
func (pu *passkeyUser) WebAuthnDisplayName() string                { return displayName(pu.u) }
func (pu *passkeyUser) WebAuthnCredentials() []webauthn.Credential { return pu.cred }

func displayName(u *platform.User) string {
	if u.Name != "" {
		return u.Name
	}
	return u.Email
}

// row is the stored passkey of a credential id.
func (pu *passkeyUser) row(id []byte) *store.Passkey {
	for i := range pu.rows {
		if bytes.Equal(pu.rows[i].CredentialID, id) {
			return &pu.rows[i]
		}
	}
	return nil
}

// loadPasskeyUser reads a user and their usable passkeys (a credential
// flagged as cloned is left out, so it signs no one in).
func (p *passkeys) loadPasskeyUser(ctx context.Context, u *platform.User) (*passkeyUser, error) {
	rows, err := p.store.Passkeys(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	pu := &passkeyUser{u: u}
	for _, k := range rows {
		if k.CloneWarning {
			continue
		}
		var c webauthn.Credential
		if err := json.Unmarshal(k.Credential, &c); err != nil {
			return nil, err
		}
		pu.rows, pu.cred = append(pu.rows, k), append(pu.cred, c)
	}
	return pu, nil
}

// sendOptions keeps the ceremony the library began (sess, for owner and
// purpose) and answers its options to the passkey script; err is the
// library's error in beginning it.
func (p *passkeys) sendOptions(r *http.Request, w http.ResponseWriter, owner, purpose string, opts any, sess *webauthn.SessionData, err error) {
	if err == nil {
		err = p.beginCeremony(r.Context(), owner, purpose, sess)
	}
	if err != nil {
		p.optionsError(w, r, http.StatusInternalServerError, "Please try again in a moment.")
		return
	}
	writeOptions(w, http.StatusOK, opts)
}

// optionsUser loads the user's passkeys for a ceremony's options; a
// failure is answered to the passkey script.
func (p *passkeys) optionsUser(r *http.Request, w http.ResponseWriter, u *platform.User) (*passkeyUser, bool) {
	pu, err := p.loadPasskeyUser(r.Context(), u)
	if err != nil {
		p.optionsError(w, r, http.StatusInternalServerError, "Please try again in a moment.")
		return nil, false
	}
	return pu, true
}

// beginCeremony keeps the library's session data of a ceremony for its owner.
func (p *passkeys) beginCeremony(ctx context.Context, owner, purpose string, s *webauthn.SessionData) error {
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return p.store.PutCeremony(ctx, owner, purpose, data, p.now().Add(ceremonyLifetime))
}

// takeCeremony returns the ceremony of an owner once; errPasskeyFailed
// when there is none (answered, expired or never begun).
func (p *passkeys) takeCeremony(ctx context.Context, owner, purpose string) (*webauthn.SessionData, error) {
	data, err := p.store.TakeCeremony(ctx, owner, purpose, p.now())
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		return nil, errPasskeyFailed
	} else if err != nil {
		return nil, err
	}
	var s webauthn.SessionData
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// recordUse stores what an accepted assertion changed: the counter (from
// the value read, once) and the credential's flags. A counter that did not
// advance flags the passkey as possibly cloned and refuses the sign-in.
func (p *passkeys) recordUse(ctx context.Context, pu *passkeyUser, c *webauthn.Credential) (*store.Passkey, error) {
	row := pu.row(c.ID)
	if row == nil {
		return nil, errPasskeyFailed
	}
	if c.Authenticator.CloneWarning {
		if err := p.store.FlagClonedPasskey(ctx, row.ID); err != nil {
			return nil, err
		}
		p.passkeyEvent(ctx, pu.u, audit.PasskeyCloneDetected, row.ID, "signature_counter_not_advanced")
		return nil, errPasskeyFailed
	}
	data, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	ok, err := p.store.UsePasskey(ctx, row.ID, row.SignCount, c.Authenticator.SignCount, data, p.now())
	if err != nil {
		return nil, err
	}
	if !ok { // another use of this passkey got there first
		return nil, errPasskeyFailed
	}
	return row, nil
}

// passkeyEvent records, right after it, an event of u's passkeys (kind:
// added, renamed, removed, a clone detected, or a confirmation with one),
// failed when reason says why; u nil is an answer that named no user, no
// customer's. Its customer (the user's organization's) sees it.
func (p *passkeys) passkeyEvent(ctx context.Context, u *platform.User, kind audit.Kind, passkeyID, reason string) {
	e := audit.Entry{Kind: kind, Failed: reason != "", Reason: reason, Details: audit.Details{Method: methodPasskey}}
	if u != nil {
		e.ActorID, e.CustomerOf = u.ID, u.ID
	}
	if passkeyID != "" {
		e.Target = audit.Target{Type: "passkey", ID: passkeyID}
	}
	p.recordAfter(ctx, e)
}

// passkeySignInFailed records, right after it, a passkey that did not sign
// u (nil: no user the answer named) in to clientID's application, at step.
func (p *passkeys) passkeySignInFailed(ctx context.Context, u *platform.User, clientID, step, reason string) {
	p.signInFailed(ctx, u, "", clientID, reason, methodPasskey, step)
}

// passkeyRecorded is the event of a change to u's passkey id (kind), for
// the transaction that makes it.
func passkeyRecorded(kind audit.Kind, u *platform.User, id string) audit.Entry {
	e := about(kind, u)
	e.Target, e.Details.Method = audit.Target{Type: "passkey", ID: id}, methodPasskey
	return e
}

// cleanPasskeyName trims a name the user gave; empty or too long is refused.
func cleanPasskeyName(s string) (string, bool) {
	s = strings.Join(strings.Fields(s), " ")
	return s, s != "" && len(s) <= passkeyNameMax
}

// stepFailed answers the error of a passkey step and reports whether there
// was one: errPasskeyFailed (a refusal) through fail with reason, anything
// else as an internal error.
func (p *passkeys) stepFailed(w http.ResponseWriter, r *http.Request, err error, fail func(reason string), reason string) bool {
	switch {
	case err == nil:
		return false
	case errors.Is(err, errPasskeyFailed):
		fail(reason)
	default:
		p.internalError(w, r, err)
	}
	return true
}

// changed answers a rename or removal of one of the user's passkeys
// (kind), which recorded itself in its transaction; a passkey that is not
// the user's is 404, recorded as refused.
func (p *passkeys) changed(w http.ResponseWriter, r *http.Request, u *platform.User, kind audit.Kind, id string, err error, done string) {
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		p.passkeyEvent(r.Context(), u, kind, id, "not_the_users_passkey")
		p.account.renderAccount(w, r, http.StatusNotFound, u, "", "There is no such passkey.")
		return
	} else if err != nil {
		p.internalError(w, r, err)
		return
	}
	http.Redirect(w, r, PathAccount+"?done="+done, http.StatusSeeOther)
}
