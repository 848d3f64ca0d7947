package idp

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/secrets"
)

// refreshGrace answers a refresh token presented again within
// RefreshReuseGrace of its rotation, by the public client it was issued to,
// with the answer of that rotation (the same successor tokens) instead of
// revoking its family: a client that lost the answer and retried keeps its
// sign-in (D-refresh-grace). After the grace, or from another client, the op
// library sees the reuse and revokes the family as before (D-refresh-reuse).
// Confidential clients get no grace: the kept answer would be handed out
// before their secret is checked.
func (p *endpoints) refreshGrace(next http.Handler) http.Handler {
	if p.cfg.RefreshReuseGrace <= 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token := grantValue(r, oidc.GrantTypeRefreshToken, "refresh_token")
		if token == "" {
			next.ServeHTTP(w, r)
			return
		}
		ctx := r.Context()
		hash := hashSecret(token)
		rt, err := p.store.RefreshToken(ctx, hash, p.now())
		if err != nil || !rt.Used {
			p.rotateKeepingAnswer(w, r, next, hash, err == nil)
			return
		}
		clientID := r.PostForm.Get("client_id")
		if rt.Revoked || clientID != rt.ClientID || !p.publicClient(ctx, clientID) {
			next.ServeHTTP(w, r)
			return
		}
		if body, ok := p.keptAnswer(ctx, hash); ok {
			slog.InfoContext(ctx, "refresh token presented again within the grace; the rotation's answer is repeated",
				"client_id", clientID, "family", rt.FamilyID)
			h := w.Header()
			h.Set("Content-Type", "application/json")
			h.Set("Cache-Control", "no-store")
			h.Set("Pragma", "no-cache")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write(body)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// grantValue is the form parameter param of a token request of grant
// type grant, when it is one and param is 1 to 512 bytes long; "" for any
// other request, which the token endpoint's own checks then answer.
func grantValue(r *http.Request, grant oidc.GrantType, param string) string {
	v := r.PostForm.Get(param)
	if r.Method != http.MethodPost || oidc.GrantType(r.PostForm.Get("grant_type")) != grant || len(v) > 512 {
		return ""
	}
	return v
}

// rotateKeepingAnswer lets the op library rotate the token and, when it
// succeeds, keeps its answer sealed on the token it used up.
func (p *endpoints) rotateKeepingAnswer(w http.ResponseWriter, r *http.Request, next http.Handler, hash string, known bool) {
	if !known {
		next.ServeHTTP(w, r)
		return
	}
	rec := &answerRecorder{header: http.Header{}}
	next.ServeHTTP(rec, r)
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	if rec.status == http.StatusOK {
		sealed := p.sealer.Seal(rec.body.Bytes(), secrets.LabelRefreshSuccessor(hash))
		if err := p.store.SetRefreshSuccessor(context.WithoutCancel(r.Context()), hash, p.now(), sealed); err != nil {
			slog.ErrorContext(r.Context(), "keep the answer of a refresh", "err", err)
		}
	}
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.status)
	_, _ = w.Write(rec.body.Bytes())
}

// keptAnswer waits (briefly: the rotation may still be running) for the
// kept answer of a token's rotation, and returns it when the rotation was
// within the grace.
func (p *endpoints) keptAnswer(ctx context.Context, hash string) ([]byte, bool) {
	deadline := time.Now().Add(3 * time.Second)
	for {
		sealed, usedAt, err := p.store.RefreshSuccessor(ctx, hash)
		if err == nil {
			if p.now().Sub(usedAt) > p.cfg.RefreshReuseGrace {
				return nil, false
			}
			body, err := p.sealer.Open(sealed, secrets.LabelRefreshSuccessor(hash))
			return body, err == nil
		}
		if platform.ErrorCode(err) != platform.ENOTFOUND || time.Now().After(deadline) {
			return nil, false
		}
		select {
		case <-ctx.Done():
			return nil, false
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (p *endpoints) publicClient(ctx context.Context, clientID string) bool {
	app, err := p.application(ctx, clientID)
	return err == nil && app.Kind == platform.AppPublic
}

// answerRecorder holds an answer back until it has been kept.
type answerRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (a *answerRecorder) Header() http.Header { return a.header }
func (a *answerRecorder) WriteHeader(code int) {
	if a.status == 0 {
		a.status = code
	}
}
func (a *answerRecorder) Write(b []byte) (int, error) {
	if a.status == 0 {
		a.status = http.StatusOK
	}
	return a.body.Write(b)
}
