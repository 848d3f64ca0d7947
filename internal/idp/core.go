package idp

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"log/slog"
	"sync"
	"time"

	"github.com/platform/platform/internal/i18n"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
)

// The provider is split into parts, each a type holding the dependencies it
// uses, over one shared core:
//
//	core          configuration, store, sealer, page templates, the
//	              browser session, CSRF, rendering, rate limits, work after
//	              the request, and loginRules, the one home of what a login
//	              policy allows (account_policy.go)
//	factors       passwords, one-time codes, recovery codes, lockout and
//	              reset links (credentials.go, totp.go, hashqueue.go)
//	storage       what zitadel/oidc's op.Storage needs (storage.go,
//	              authrequest.go, client.go, accesstoken.go, audience.go,
//	              device.go's storage half)
//	endpoints     the OAuth endpoints around op: client authentication,
//	              PAR, the device endpoint, refresh grace, discovery, CORS
//	              (endpoints.go lists the files)
//	loginPages    sign-in, second factor, the login transaction's binding,
//	              device and end-session pages (login.go, binding.go,
//	              logincard.go, device.go, endsession.go)
//	accountPages  the account page, confirmation, e-mail verification,
//	              invitation and reset links (account.go, selfservice.go,
//	              reauth.go, verify.go, links.go)
//	passkeys      WebAuthn ceremonies and passkey pages (passkey*.go)
//	ssoLogin      sign-in through external providers (sso.go, upstream.go,
//	              ssokeys.go)
//	mgmtAPI       the management API (mgmt.go, mgmt_apps.go)
//	logoutSender  back-channel logout delivery (logout.go)
//	clientDocs    client ids that are metadata documents' URLs
//	              (clientdoc.go, clientdocs.go)
//
// Provider (provider.go) builds and composes them and keeps the exported
// surface.
type core struct {
	cfg    Config
	store  *store.Store
	sealer *secrets.Sealer
	pages  i18n.Pages // one template set per language (D-languages)
	secure bool       // cookies get Secure when the issuer is https
	// passkeysOn: the issuer can be a WebAuthn relying party (passkey.go).
	passkeysOn bool
	// logoutWake has the logout sender look at its queue.
	logoutWake chan struct{}
	// docs resolves client ids that are metadata documents' URLs
	// (clientdocs.go, D-client-metadata-documents).
	docs       *clientDocs
	pending    sync.WaitGroup // work started after requests (later)
	laterSlots chan struct{}  // one per job of later running
}

// Bounds of the work started after requests (later): at most laterSlots
// jobs at once, each within laterBudget.
const (
	laterSlots  = 32
	laterBudget = 30 * time.Second
)

// later runs fn after the request, detached from its cancellation (the
// answer must not wait for it, nor its timing tell anything), within
// laterBudget; WaitBackground waits for such work (tests, shutdown). At
// most laterSlots jobs run at once: past that the job is dropped and
// logged, so a flood from many addresses cannot pile up goroutines and
// database work that no request waits for.
func (p *core) later(ctx context.Context, fn func(context.Context) error) {
	select {
	case p.laterSlots <- struct{}{}:
	default:
		slog.WarnContext(ctx, "account e-mail dropped: too many in flight", "in_flight", laterSlots)
		return
	}
	ctx = context.WithoutCancel(ctx)
	p.pending.Add(1)
	go func() {
		defer func() { <-p.laterSlots }()
		defer p.pending.Done()
		ctx, cancel := context.WithTimeout(ctx, laterBudget)
		defer cancel()
		if err := fn(ctx); err != nil {
			slog.ErrorContext(ctx, "account e-mail", "err", err)
		}
	}()
}

// WaitBackground waits for the work started after requests (reset and
// unlock e-mails) to finish.
func (p *core) WaitBackground() { p.pending.Wait() }

func (p *core) now() time.Time { return p.cfg.Now() }

// randomToken is 32 random bytes, base64url: ids, handles, secrets.
func randomToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return base64.RawURLEncoding.EncodeToString(b)
}
