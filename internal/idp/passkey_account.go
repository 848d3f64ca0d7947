package idp

import (
	"strings"
	"time"

	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// passkeyRemoveView asks before a passkey is removed.
type passkeyRemoveView struct {
	CSRF, ID, Name string
	Brand          brandView
}

// passkeyRow is a passkey as the account page lists it.
type passkeyRow struct {
	ID, Name          string
	Created, LastUsed time.Time // LastUsed zero: never (the page says so in its language)
	Cloned            bool
}

// passkeyRows lists a user's passkeys for the account page.
func passkeyRows(keys []store.Passkey) []passkeyRow {
	out := make([]passkeyRow, 0, len(keys))
	for _, k := range keys {
		row := passkeyRow{ID: k.ID, Name: k.Name, Created: k.CreatedAt, Cloned: k.CloneWarning}
		if k.LastUsedAt != nil {
			row.LastUsed = *k.LastUsedAt
		}
		out = append(out, row)
	}
	return out
}

// sessionOwner names the browser session an enrolment belongs to.
func sessionOwner(s *store.Session) string { return "s:" + s.IDHash }

// accountPasskeyOptions begins adding a passkey for the signed-in user:
// a discoverable credential, user verification required, no attestation,
// none of the user's passkeys again. It needs a recent proof (D-reauth).
func (p *passkeys) accountPasskeyOptions(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	s, u, ok := p.accountOptions(w, r)
	if !ok {
		return
	}
	if !p.account.recentProof(s) {
		p.optionsError(w, r, http.StatusForbidden, msgConfirmFirst)
		return
	}
	policy, err := p.loginRules(ctx, u.OrgID)
	if err != nil || !policy.passkeys() {
		p.optionsError(w, r, http.StatusForbidden, "Your organization does not use passkeys.")
		return
	}
	pu, ok := p.optionsUser(r, w, u)
	if !ok {
		return
	}
	if full, err := p.passkeysFull(ctx, u); err != nil || full {
		p.optionsError(w, r, http.StatusConflict, msgPasskeysFull)
		return
	}
	opts, sess, err := p.webauthn.BeginRegistration(pu, registrationOptions(pu)...)
	p.sendOptions(r, w, sessionOwner(s), purposeRegister, opts, sess, err)
}

// registrationOptions are the options of every enrolment: a discoverable
// credential, user verification required, no attestation, none of the
// user's passkeys again.
func registrationOptions(pu *passkeyUser) []webauthn.RegistrationOption {
	return []webauthn.RegistrationOption{
		webauthn.WithResidentKeyRequirement(protocol.ResidentKeyRequirementRequired),
		webauthn.WithAuthenticatorSelection(protocol.AuthenticatorSelection{
			ResidentKey: protocol.ResidentKeyRequirementRequired, UserVerification: protocol.VerificationRequired}),
		webauthn.WithConveyancePreference(protocol.PreferNoAttestation),
		webauthn.WithExclusions(webauthn.Credentials(pu.cred).CredentialDescriptors()),
	}
}

// accountPasskeyAdd stores the passkey the browser created for the
// enrolment this session began, while the session's proof is recent.
func (p *passkeys) accountPasskeyAdd(w http.ResponseWriter, r *http.Request) {
	u, ok := p.account.accountForm(w, r)
	if !ok || !p.account.requireProof(w, r, u, PathAccount) {
		return
	}
	ctx := r.Context()
	if _, ok := p.account.orgAllows(w, r, u, loginRules.passkeys, "Your organization does not use passkeys."); !ok {
		return
	}
	// no name: the passkey is named for its provider once its AAGUID is
	// known (D-passkey-names)
	name, ok := "", true
	if strings.TrimSpace(r.PostForm.Get("name")) != "" {
		name, ok = cleanPasskeyName(r.PostForm.Get("name"))
	}
	if !ok {
		p.account.renderAccount(w, r, http.StatusBadRequest, u, "", "Give the passkey a name of at most 64 characters.")
		return
	}
	raw := r.PostForm.Get("credential")
	if raw == "" {
		p.account.renderAccount(w, r, http.StatusBadRequest, u, "", "Adding a passkey needs a browser that supports passkeys, with JavaScript on.")
		return
	}
	err := p.enrol(r, u, sessionOwner(sessionFromContext(ctx)), purposeRegister, raw, name)
	switch {
	case errors.Is(err, errPasskeysFull):
		p.account.renderAccount(w, r, http.StatusConflict, u, "", msgPasskeysFull)
		return
	case errors.Is(err, errPasskeyFailed):
		p.account.renderAccount(w, r, http.StatusBadRequest, u, "", "The passkey could not be added. Try again.")
		return
	case err != nil:
		p.internalError(w, r, err)
		return
	}
	http.Redirect(w, r, PathAccount+"?done=passkey-added", http.StatusSeeOther)
}

var errPasskeysFull = errors.New("idp: the account holds the most passkeys it can")

// enrol takes the enrolment ceremony of owner (for purpose, once) and
// stores the passkey of the browser's answer raw to it (createPasskey).
func (p *passkeys) enrol(r *http.Request, u *platform.User, owner, purpose, raw, name string) error {
	sess, err := p.takeCeremony(r.Context(), owner, purpose)
	if errors.Is(err, errPasskeyFailed) {
		sess = nil // createPasskey records the missing challenge
	} else if err != nil {
		return err
	}
	return p.createPasskey(r, u, sess, raw, name)
}

// createPasskey checks the browser's answer raw to u's enrolment sess (nil:
// none was open) and stores the passkey it created, named name (empty: for
// its provider, D-passkey-names), with its event and its holder's notice
// (addPasskey). A refusal is audited and answered errPasskeyFailed, a full
// account errPasskeysFull.
func (p *passkeys) createPasskey(r *http.Request, u *platform.User, sess *webauthn.SessionData, raw, name string) error {
	ctx := r.Context()
	refuse := func(reason string, err error) error {
		p.passkeyEvent(ctx, u, audit.PasskeyAdded, "", reason)
		return err
	}
	if sess == nil {
		return refuse("no_open_challenge", errPasskeyFailed)
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes([]byte(raw))
	if err != nil {
		return refuse("malformed_answer", errPasskeyFailed)
	}
	pu, err := p.loadPasskeyUser(ctx, u)
	if err != nil {
		return err
	}
	cred, err := p.webauthn.CreateCredential(pu, *sess, parsed)
	if err != nil {
		return refuse(passkeyReason(ctx, err), errPasskeyFailed)
	}
	if name == "" {
		if name = authenticatorName(cred.Authenticator.AAGUID); name == "" {
			name = p.trf(r, "Passkey")
		}
	}
	data, err := json.Marshal(cred)
	if err != nil {
		return err
	}
	if full, err := p.passkeysFull(ctx, u); err != nil {
		return err
	} else if full {
		return refuse("too_many_passkeys", errPasskeysFull)
	}
	k := &store.Passkey{ID: newPasskeyID(), UserID: u.ID, CredentialID: cred.ID, Name: name, Credential: data,
		SignCount: cred.Authenticator.SignCount, CreatedAt: p.now()}
	if err := p.addPasskey(ctx, u, k); platform.ErrorCode(err) == platform.ECONFLICT {
		return refuse("already_registered", errPasskeyFailed)
	} else if err != nil {
		return err
	}
	return nil
}

const msgPasskeysFull = "Your account holds 20 passkeys, the most it can. Remove one you no longer use first."

// passkeysFull reports whether u holds passkeysMax passkeys already.
func (p *passkeys) passkeysFull(ctx context.Context, u *platform.User) (bool, error) {
	keys, err := p.store.Passkeys(ctx, u.ID)
	return len(keys) >= passkeysMax, err
}

// addPasskey stores k and, in the same transaction, mails its holder a
// notice naming it: a passkey signs in without the password, so one added
// from a stolen session must not go unnoticed.
func (p *passkeys) addPasskey(ctx context.Context, u *platform.User, k *store.Passkey) error {
	org := ""
	if o, err := p.store.Organization(ctx, u.OrgID); err == nil {
		org = o.Name
	}
	customer := p.customerOf(ctx, u.OrgID)
	return p.store.InTx(ctx, func(tx *store.Store) error {
		if err := tx.CreatePasskey(ctx, k); err != nil {
			return err
		}
		if err := p.record(ctx, tx, passkeyRecorded(audit.PasskeyAdded, u, k.ID)); err != nil {
			return err
		}
		return (&mail.Outbox{Sealer: p.sealer, Now: p.now}).Queue(ctx, tx, mail.Message{Kind: mail.KindPasskey, To: u.Email, UserID: u.ID,
			CustomerID: customer, Org: org, Name: u.Name, Passkey: k.Name, Link: p.cfg.Issuer + PathAccount,
			Lang: mailLanguage(ctx, u)})
	})
}

// accountPasskeyRename names one of the user's passkeys.
func (p *passkeys) accountPasskeyRename(w http.ResponseWriter, r *http.Request) {
	u, ok := p.account.accountForm(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	id := r.PostForm.Get("id")
	name, ok := cleanPasskeyName(r.PostForm.Get("name"))
	if !ok {
		p.account.renderAccount(w, r, http.StatusBadRequest, u, "", "Give the passkey a name of at most 64 characters.")
		return
	}
	err := p.store.InTx(ctx, func(tx *store.Store) error {
		if err := tx.RenamePasskey(ctx, u.ID, id, name); err != nil {
			return err
		}
		return p.record(ctx, tx, passkeyRecorded(audit.PasskeyRenamed, u, id))
	})
	p.changed(w, r, u, audit.PasskeyRenamed, id, err, "passkey-renamed")
}

// accountPasskeyRemove removes one of the user's passkeys, with a recent
// proof (D-reauth), and mails its holder; the last one is kept while the
// organization requires passkeys.
func (p *passkeys) accountPasskeyRemove(w http.ResponseWriter, r *http.Request) {
	u, ok := p.account.accountForm(w, r)
	if !ok || !p.account.requireProof(w, r, u, PathAccount) {
		return
	}
	ctx := r.Context()
	id := r.PostForm.Get("id")
	keys, err := p.store.Passkeys(ctx, u.ID)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	required, err := p.passkeyRequired(ctx, u)
	if err != nil {
		p.internalError(w, r, err)
		return
	}
	if required && len(keys) == 1 && keys[0].ID == id {
		p.account.renderAccount(w, r, http.StatusBadRequest, u, "", "Your organization signs in with passkeys: add another one before you remove this one.")
		return
	}
	name, found := "", false
	for _, k := range keys {
		if k.ID == id {
			name, found = k.Name, true
		}
	}
	if found && r.PostForm.Get("confirm") != "yes" { // the list's Remove asks first (D-passkey-names)
		p.render(w, r, http.StatusOK, "passkey_remove.html", passkeyRemoveView{CSRF: p.newCSRF(w), ID: id, Name: name,
			Brand: p.brands().ofOrg(r.Context(), u.OrgID)})
		return
	}
	notice := p.signInNotice(ctx, u, "The passkey “%s” was removed from your account; it no longer signs you in.", strings.TrimSpace(name))
	err = p.store.InTx(ctx, func(tx *store.Store) error {
		if err := tx.DeletePasskey(ctx, u.ID, id); err != nil {
			return err
		}
		if err := p.record(ctx, tx, passkeyRecorded(audit.PasskeyRemoved, u, id)); err != nil {
			return err
		}
		return p.queueNotice(ctx, tx, notice)
	})
	p.changed(w, r, u, audit.PasskeyRemoved, id, err, "passkey-removed")
}

func newPasskeyID() string { return "pk_" + randomToken()[:22] }

// accountConfirmOptions begins a passkey confirmation: one of the user's
// own passkeys, user verification required, for this browser session.
func (p *passkeys) accountConfirmOptions(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	s, u, ok := p.accountOptions(w, r)
	if !ok {
		return
	}
	m, err := p.account.proofMethods(ctx, u)
	if err != nil || !m.Passkey || p.webauthn == nil {
		p.optionsError(w, r, http.StatusForbidden, "You have no passkey to confirm with.")
		return
	}
	pu, ok := p.optionsUser(r, w, u)
	if !ok {
		return
	}
	opts, sess, err := p.webauthn.BeginLogin(pu, webauthn.WithUserVerification(protocol.VerificationRequired))
	p.sendOptions(r, w, sessionOwner(s), purposeReauth, opts, sess, err)
}

// provePasskey checks a passkey's answer to this session's confirmation
// challenge (taken once): one of u's own passkeys, its counter advancing.
// Every outcome is audited.
func (p *passkeys) provePasskey(ctx context.Context, u *platform.User, raw string) (bool, error) {
	fail := func(reason string) (bool, error) {
		p.passkeyEvent(ctx, u, audit.Reauthentication, "", reason)
		return false, nil
	}
	sess, err := p.takeCeremony(ctx, sessionOwner(sessionFromContext(ctx)), purposeReauth)
	if errors.Is(err, errPasskeyFailed) {
		return fail("no_open_challenge")
	} else if err != nil {
		return false, err
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes([]byte(raw))
	if err != nil {
		return fail("malformed_answer")
	}
	pu, err := p.loadPasskeyUser(ctx, u)
	if err != nil {
		return false, err
	}
	cred, err := p.webauthn.ValidateLogin(pu, *sess, parsed)
	if err != nil {
		return fail(passkeyReason(ctx, err))
	}
	row, err := p.recordUse(ctx, pu, cred)
	if errors.Is(err, errPasskeyFailed) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	p.passkeyEvent(ctx, u, audit.Reauthentication, row.ID, "")
	return true, nil
}
