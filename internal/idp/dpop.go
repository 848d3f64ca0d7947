package idp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/zitadel/oidc/v3/pkg/oidc"

	"github.com/platform/platform/internal/dpop"
	"github.com/platform/platform/internal/platform"
)

// Sender-constrained tokens (DPoP, RFC 9449; D-dpop). A token request with a
// valid DPoP proof gets tokens bound to the proof's key: the access token
// carries cnf.jkt (the key's RFC 7638 thumbprint) and is answered with
// token_type DPoP; a public client's refresh token is bound too, and only a
// proof of the same key refreshes it. An application with RequireDPoP gets
// no token without a proof. Each proof carries a nonce the provider issued
// (section 8: a proof without a current one is answered use_dpop_nonce with
// a DPoP-Nonce header) and is accepted once (its jti, stored until its iat
// window ends, at every replica). An authorization request may bind its
// code to a key beforehand (dpop_jkt, section 10; or a proof sent with the
// pushed request): the code is then exchanged only with a proof of that key.

// tokenTypeDPoP is the token_type of a bound access token.
const tokenTypeDPoP = "DPoP"

// binding is what the proof of a token request binds: the key's
// thumbprint, and whether the refresh token is bound too (public clients).
type dpopBinding struct {
	jkt          string
	bindsRefresh bool
}

type dpopBindingKey struct{}

// boundTo is the binding of the token request in ctx, or the zero binding.
func boundTo(ctx context.Context) dpopBinding {
	b, _ := ctx.Value(dpopBindingKey{}).(dpopBinding)
	return b
}

// confirmation is an access token's cnf claim (RFC 9449 section 6.1).
type confirmation struct {
	JKT string `json:"jkt"`
}

// dpopProof checks the DPoP proof of a token request (after clientAuth,
// which settled the client) and binds the tokens to its key; see above.
func (p *endpoints) dpopProof(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		ctx := r.Context()
		proofs := r.Header.Values(dpop.HeaderProof)
		if len(proofs) > 1 {
			oauthError(w, http.StatusBadRequest, "invalid_dpop_proof", "one DPoP proof per request")
			return
		}
		clientID := r.PostForm.Get("client_id")
		if id, _, ok := r.BasicAuth(); ok {
			clientID = id
		}
		app, err := p.application(ctx, clientID)
		if err != nil {
			next.ServeHTTP(w, r) // the op library answers an unknown client
			return
		}
		bound, what := p.boundGrant(ctx, r.PostForm)
		if len(proofs) == 0 {
			switch {
			case app.RequireDPoP:
				oauthError(w, http.StatusBadRequest, "invalid_dpop_proof", "this client's tokens require a DPoP proof")
				return
			case bound != "":
				oauthError(w, http.StatusBadRequest, "invalid_dpop_proof", "the "+what+" is bound to a key: a DPoP proof is required")
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		now := p.now()
		proof, err := dpop.Verify(proofs[0], dpop.Expect{Method: http.MethodPost, URL: p.cfg.Issuer + PathToken, Now: now})
		if err != nil {
			oauthError(w, http.StatusBadRequest, "invalid_dpop_proof", err.(*dpop.Error).Reason)
			return
		}
		// every answer to a proof names the current nonce, so that a client
		// keeps one at hand (section 8.2)
		w.Header().Set(dpop.HeaderNonce, p.nonces.Issue(now))
		if !p.nonces.Valid(proof.Nonce, now) {
			oauthError(w, http.StatusBadRequest, "use_dpop_nonce", "the proof must carry the nonce of the DPoP-Nonce header")
			return
		}
		if bound != "" && !dpop.SameJKT(bound, proof.JKT) {
			slog.WarnContext(ctx, "token request for a bound grant with another key's proof refused", "client_id", clientID, "grant", what)
			oauthError(w, http.StatusBadRequest, "invalid_dpop_proof", "the "+what+" is bound to another key")
			return
		}
		fresh, err := p.store.UseDPoPProof(ctx, proof.ReplayKey(), proof.Expires())
		if err != nil {
			oauthError(w, http.StatusInternalServerError, "server_error", "the proof could not be recorded")
			return
		}
		if !fresh {
			oauthError(w, http.StatusBadRequest, "invalid_dpop_proof", "the proof was used already")
			return
		}
		ctx = context.WithValue(ctx, dpopBindingKey{}, dpopBinding{jkt: proof.JKT, bindsRefresh: app.Kind == platform.AppPublic})
		rec := &answerRecorder{header: http.Header{}}
		next.ServeHTTP(rec, r.WithContext(ctx))
		writeBoundAnswer(w, rec)
	})
}

// boundGrant is the thumbprint of the key the grant of a token request is
// bound to, "" for none, and what the grant is called in an error: a public
// client's refresh token bound at its issue, or a code whose authorization
// request named dpop_jkt. Looking the code up spends nothing: the op
// library redeems it afterwards.
func (p *endpoints) boundGrant(ctx context.Context, form url.Values) (jkt, what string) {
	switch oidc.GrantType(form.Get("grant_type")) {
	case oidc.GrantTypeRefreshToken:
		if rt, err := p.store.RefreshToken(ctx, hashSecret(form.Get("refresh_token")), p.now()); err == nil {
			return rt.DPoPJKT, "refresh token"
		}
	case oidc.GrantTypeCode:
		if code := form.Get("code"); code != "" && len(code) <= 512 {
			if a, err := p.store.AuthRequestByCodeHash(ctx, hashSecret(code), p.now()); err == nil {
				return a.DPoPJKT, "authorization code"
			}
		}
	}
	return "", ""
}

// dpopJKTKey carries an authorization request's dpop_jkt from the
// authorization endpoint's request to CreateAuthRequest.
type dpopJKTKey struct{}

// codeKey sits in front of the authorization endpoint (after a pushed
// request is resolved into its parameters): it hands the request's
// dpop_jkt to CreateAuthRequest, which checks and stores it.
func (p *endpoints) codeKey(next http.Handler) http.Handler {
	return carryParam(paramDPoPJKT, dpopJKTKey{}, next)
}

// carryParam hands the authorization request's parameter name, when it is
// sent, to CreateAuthRequest as the context's value of key.
func carryParam(name string, key any, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil || !r.Form.Has(name) {
			next.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), key, r.Form.Get(name))))
	})
}

// paramDPoPJKT is the authorization request's parameter naming the key its
// code is bound to (RFC 9449 section 10).
const paramDPoPJKT = "dpop_jkt"

// codeKeyOf is the dpop_jkt of the authorization request in ctx; ok is
// false when it was sent but is no SHA-256 thumbprint.
func codeKeyOf(ctx context.Context) (jkt string, ok bool) {
	v, sent := ctx.Value(dpopJKTKey{}).(string)
	if !sent {
		return "", true
	}
	return v, validThumbprint(v)
}

// validThumbprint reports whether v has the shape of an RFC 7638 SHA-256
// thumbprint: 43 base64url characters.
func validThumbprint(v string) bool {
	b, err := base64.RawURLEncoding.DecodeString(v)
	return err == nil && len(b) == 32 && len(v) == 43
}

// writeBoundAnswer passes on a token answer, with token_type DPoP when it
// issued tokens.
func writeBoundAnswer(w http.ResponseWriter, rec *answerRecorder) {
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	body := rec.body.Bytes()
	if rec.status == http.StatusOK {
		var m map[string]json.RawMessage
		if json.Unmarshal(body, &m) == nil && m["access_token"] != nil {
			m["token_type"], _ = json.Marshal(tokenTypeDPoP)
			if b, err := json.Marshal(m); err == nil {
				body = b
			}
		}
	}
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	w.Header().Del("Content-Length")
	w.WriteHeader(rec.status)
	_, _ = w.Write(body)
}

// refuseBoundBearer keeps DPoP-bound access tokens from the endpoints that
// take bearer tokens only (userinfo): a token whose claims carry cnf is
// refused as the op library refuses an invalid one (bearerChallenge makes
// the answer), before anything else is read of it. Its signature is the op
// library's to check; a forged token with cnf is refused all the same.
func refuseBoundBearer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok {
			raw = r.FormValue("access_token")
		}
		if hasConfirmation(raw) {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hasConfirmation reports whether the JWT raw carries a cnf claim.
func hasConfirmation(raw string) bool {
	parts := strings.Split(raw, ".")
	if len(parts) != 3 || len(raw) > 8192 {
		return false
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return false
	}
	var c struct {
		CNF json.RawMessage `json:"cnf"`
	}
	return json.Unmarshal(b, &c) == nil && len(c.CNF) > 0 && string(c.CNF) != "null"
}
