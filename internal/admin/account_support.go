package admin

import (
	"context"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// What support does for a stuck user beyond the invitation and the lockout
// (account.go), for customer and internal users alike (D-support-tools):
// list the user's browser sessions at the identity provider, sign the user
// out of one or of all, and reset the second factor.

// UserSession is one of a user's browser sessions at the identity provider.
// ID names it in the sign-out (the session's sid, which its id_tokens and
// logout tokens carry; never its cookie).
type UserSession struct {
	ID string `json:"id"`
	// UserAgent is the browser's User-Agent at sign-in (up to 512 bytes).
	UserAgent string `json:"userAgent"`
	// Address is the client address the session was last used from.
	Address string `json:"address"`
	// SignedInAt is when the user last signed in in it; LastSeenAt when it
	// was last used at the identity provider (at most a minute behind);
	// ExpiresAt when it ends by itself.
	SignedInAt time.Time `json:"signedInAt"`
	LastSeenAt time.Time `json:"lastSeenAt"`
	ExpiresAt  time.Time `json:"expiresAt"`
	// Methods are how the sign-in was made (the id_token's amr: pwd, otp,
	// hwk, fed, mfa).
	Methods []string `json:"methods"`
}

func newUserSession(ss *store.Session) *UserSession {
	m := ss.AMR
	if m == nil {
		m = []string{}
	}
	return &UserSession{ID: ss.SID, UserAgent: ss.UserAgent, Address: ss.Address, SignedInAt: ss.AuthTime, LastSeenAt: ss.LastSeenAt,
		ExpiresAt: ss.ExpiresAt, Methods: m}
}

// sessions answers a page of the user userID's unexpired browser sessions,
// newest first (platform.NewestPages). EINVALID for a bad page.
func (s *accounts) sessions(ctx context.Context, userID string, p PageInput) (*Page[*UserSession], error) {
	return newestPage(platform.NewestPages, p.Limit, func() ([]store.Session, string, error) {
		return s.store.UserSessionPage(ctx, userID, s.now(), p)
	}, newUserSession)
}

// endSession signs a out of its browser session sid as op, with the
// session's grants and their back-channel logouts (store.EndUserSession).
// ENOTFOUND when a has no such session.
func (s *accounts) endSession(ctx context.Context, c *access.Caller, op Operation, a account, sid string) error {
	if sid == "" || len(sid) > 128 {
		return platform.Errorf(platform.ENOTFOUND, "session not found")
	}
	what := a.acted()
	what.resource += "/sessions/" + sid
	return s.audited(ctx, c, op, what, func(tx *store.Store) error { return tx.EndUserSession(ctx, a.id, sid, s.now()) })
}

// inSession is the step that ends a's session sid (endSession).
func (s *accounts) inSession(sid string) step {
	return func(ctx context.Context, c *access.Caller, op Operation, a account) error {
		return s.endSession(ctx, c, op, a, sid)
	}
}

// endSessions signs a out everywhere as op: every browser session, grant,
// access and refresh token and tenant session ends, and the applications
// that take back-channel logouts are told (store.EndUserCredentials).
func (s *accounts) endSessions(ctx context.Context, c *access.Caller, op Operation, a account) error {
	return s.audited(ctx, c, op, a.acted(), func(tx *store.Store) error { return tx.EndUserCredentials(ctx, a.id, s.now()) })
}

var (
	errResetSelf      = platform.Errorf(platform.EINVALID, "you cannot reset your own second factor here; use your account page")
	errNoSecondFactor = platform.Errorf(platform.EINVALID, "the user has no second factor to reset")
)

// resetSecondFactor removes a's authenticator app, recovery codes and
// passkeys as op, ends everything a is signed in with and mails a
// (mail.KindSecondFactorReset), all in one transaction with the audit
// event. At a's next sign-in an organization that forces a second factor
// has a new one set up (the provider's enrolment). EINVALID for the caller
// itself and for an account without a second factor.
func (s *accounts) resetSecondFactor(ctx context.Context, c *access.Caller, op Operation, a account) error {
	if a.id == c.UserID {
		return errResetSelf
	}
	org, err := s.orgName(ctx, a.customerID)
	if err != nil {
		return err
	}
	return s.audited(ctx, c, op, a.acted(), func(tx *store.Store) error {
		removed, err := tx.ResetSecondFactor(ctx, a.id, s.now())
		if err != nil {
			return err
		}
		if !removed {
			return errNoSecondFactor
		}
		return s.queueMail(ctx, tx, mail.Message{Kind: mail.KindSecondFactorReset, To: a.email, CustomerID: a.customerID,
			UserID: a.id, Org: org, Name: a.name, Link: s.issuer + mail.PathAccount})
	})
}
