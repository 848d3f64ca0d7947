package idp

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"image/png"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
)

const (
	totpPeriod        = 30
	recoveryCodeCount = 10
)

// totpEnrolment is what the enrolment page shows.
type totpEnrolment struct {
	Secret string       // base32, for typing into an authenticator
	QR     template.URL // data: URI of a PNG QR code of the otpauth:// URL (built here, so trusted)
}

// beginTOTP creates (or restarts) an unconfirmed TOTP factor for a user.
func (p *factors) beginTOTP(ctx context.Context, userID, email string) (*totpEnrolment, error) {
	key, err := totp.Generate(totp.GenerateOpts{Issuer: p.totpIssuer(), AccountName: email, Period: totpPeriod,
		SecretSize: 20, Algorithm: otp.AlgorithmSHA1, Digits: otp.DigitsSix})
	if err != nil {
		return nil, err
	}
	if err := p.store.PutTOTP(ctx, &store.TOTPFactor{UserID: userID,
		SecretSealed: p.sealer.Seal([]byte(key.Secret()), secrets.LabelTOTP(userID)), CreatedAt: p.now()}); err != nil {
		return nil, err
	}
	return enrolmentOf(key, key.Secret())
}

func (p *factors) totpIssuer() string {
	return strings.TrimPrefix(strings.TrimPrefix(p.cfg.Issuer, "https://"), "http://")
}

var errBadCode = errors.New("idp: wrong code")

// checkTOTP verifies a six-digit code against the user's factor (one step of
// clock drift either way) and spends its time step, so each code works once.
// A successful check of an unconfirmed factor confirms it.
func (p *factors) checkTOTP(ctx context.Context, userID, code string) error {
	f, err := p.store.TOTP(ctx, userID)
	if err != nil {
		return errBadCode
	}
	secret, err := p.sealer.Open(f.SecretSealed, secrets.LabelTOTP(userID))
	if err != nil {
		return fmt.Errorf("open totp secret: %w", err)
	}
	code = strings.ReplaceAll(strings.TrimSpace(code), " ", "")
	now := p.now()
	for _, skew := range []int64{0, -1, 1} {
		t := now.Add(time.Duration(skew*totpPeriod) * time.Second)
		ok, err := totp.ValidateCustom(code, string(secret), t, totp.ValidateOpts{Period: totpPeriod, Skew: 0,
			Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
		if err != nil || !ok {
			continue
		}
		fresh, err := p.store.UseTOTPStep(ctx, userID, t.Unix()/totpPeriod)
		if err != nil {
			return err
		}
		if !fresh {
			return errBadCode // replay of a spent code
		}
		return nil
	}
	return errBadCode
}

// newRecoveryCodes replaces a user's recovery codes and returns them once, in
// clear; only their hashes are kept.
func (p *factors) newRecoveryCodes(ctx context.Context, userID string) ([]string, error) {
	return p.replaceRecoveryCodes(ctx, p.store, userID)
}

// noticedRecoveryCodes replaces u's recovery codes, records why (kind:
// new codes, or an authenticator enrolled with them) and queues the notice
// of change to its holder in one transaction, and answers the new codes.
func (p *factors) noticedRecoveryCodes(ctx context.Context, u *platform.User, change string, kind audit.Kind) ([]string, error) {
	notice := p.signInNotice(ctx, u, change)
	var codes []string
	err := p.store.InTx(ctx, func(tx *store.Store) error {
		var err error
		if codes, err = p.replaceRecoveryCodes(ctx, tx, u.ID); err != nil {
			return err
		}
		if err := p.record(ctx, tx, enrolment(kind, u)); err != nil {
			return err
		}
		return p.queueNotice(ctx, tx, notice)
	})
	return codes, err
}

// enrolledCodes makes the recovery codes of an authenticator u just
// enrolled during a sign-in, recorded (mfa.enrolled) in one transaction.
func (p *factors) enrolledCodes(ctx context.Context, u *platform.User) ([]string, error) {
	var codes []string
	err := p.store.InTx(ctx, func(tx *store.Store) error {
		var err error
		if codes, err = p.replaceRecoveryCodes(ctx, tx, u.ID); err != nil {
			return err
		}
		return p.record(ctx, tx, enrolment(audit.MFAEnrolled, u))
	})
	return codes, err
}

// enrolment is the event of u's authenticator app (kind: enrolled, or its
// recovery codes made anew).
func enrolment(kind audit.Kind, u *platform.User) audit.Entry {
	e := about(kind, u)
	e.Details.Method = methodTOTP
	return e
}

// replaceRecoveryCodes is newRecoveryCodes through st (a transaction of a
// change the codes belong to).
func (p *factors) replaceRecoveryCodes(ctx context.Context, st *store.Store, userID string) ([]string, error) {
	codes := make([]string, recoveryCodeCount)
	hashes := make([]string, recoveryCodeCount)
	for i := range codes {
		b := make([]byte, 8)
		if _, err := rand.Read(b); err != nil {
			return nil, err
		}
		s := strings.ToLower(base32NoPad.EncodeToString(b))[:12]
		codes[i] = s[:4] + "-" + s[4:8] + "-" + s[8:]
		hashes[i] = hashSecret(userID + ":" + strings.ReplaceAll(codes[i], "-", ""))
	}
	if err := st.ReplaceRecoveryCodes(ctx, userID, hashes); err != nil {
		return nil, err
	}
	return codes, nil
}

// useRecoveryCode spends a recovery code.
func (p *factors) useRecoveryCode(ctx context.Context, userID, code string) error {
	norm := strings.ToLower(strings.NewReplacer("-", "", " ", "").Replace(strings.TrimSpace(code)))
	ok, err := p.store.UseRecoveryCode(ctx, userID, hashSecret(userID+":"+norm))
	if err != nil {
		return err
	}
	if !ok {
		return errBadCode
	}
	return nil
}

// currentEnrolment shows an unconfirmed factor again (after a wrong code).
func (p *factors) currentEnrolment(ctx context.Context, u *platform.User) (*totpEnrolment, error) {
	f, err := p.store.TOTP(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	secret, err := p.sealer.Open(f.SecretSealed, secrets.LabelTOTP(u.ID))
	if err != nil {
		return nil, err
	}
	issuer := p.totpIssuer()
	q := url.Values{"secret": {string(secret)}, "issuer": {issuer}, "period": {"30"}, "digits": {"6"}, "algorithm": {"SHA1"}}
	key, err := otp.NewKeyFromURL("otpauth://totp/" + url.PathEscape(issuer+":"+u.Email) + "?" + q.Encode())
	if err != nil {
		return nil, err
	}
	return enrolmentOf(key, string(secret))
}

// confirmEnrolment checks the first code of an authenticator being
// enrolled (the form's "code"); a wrong code shows the setup page of
// action again. It reports whether the code was right, and answers
// otherwise.
func (p *factors) confirmEnrolment(w http.ResponseWriter, r *http.Request, u *platform.User, action, authRequestID string) bool {
	err := p.checkSecondFactor(r.Context(), u, r.PostForm.Get("code"), false)
	if err == nil {
		return true
	}
	if !errors.Is(err, errBadCode) {
		p.internalError(w, r, err)
		return false
	}
	e := enrolment(audit.MFAEnrolled, u)
	e.Failed, e.Reason = true, reasonInvalidCode
	p.recordAfter(r.Context(), e)
	enrol, err := p.currentEnrolment(r.Context(), u)
	if err != nil {
		p.internalError(w, r, err)
		return false
	}
	p.renderSetup(w, r, http.StatusUnauthorized, action, authRequestID, enrol, msgCodeFailed, p.brands().ofUserPage(r, u))
	return false
}

// enrolmentOf is what the setup page shows of a key: its secret and its
// QR code.
func enrolmentOf(key *otp.Key, secret string) (*totpEnrolment, error) {
	img, err := key.Image(240, 240)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return &totpEnrolment{Secret: secret, QR: template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes()))}, nil
}
