package idp

import (
	"net/http"
	"slices"
	"strings"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/platform/platform/internal/httpapi"
)

// refreshWithoutIDToken answers a refresh_token grant with a new access
// token and the rotated refresh token, and no id_token, unless the request's
// scope parameter names openid (D-refresh-id-token, OpenID Connect Core
// 12.2). A refresh is no new authentication: an id_token would repeat the
// sign-in's claims at the price of a second signature. The rotation, the
// client's authentication and the checks of the grant are the op library's,
// as for every other grant; a request that asks for the id_token goes to it
// whole.
func (p *endpoints) refreshWithoutIDToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || oidc.GrantType(r.PostForm.Get("grant_type")) != oidc.GrantTypeRefreshToken ||
			asksForIDToken(r.PostForm.Get("scope")) {
			next.ServeHTTP(w, r)
			return
		}
		r = r.WithContext(op.ContextWithIssuer(r.Context(), p.cfg.Issuer))
		req, err := op.ParseRefreshTokenRequest(r, p.op.Decoder())
		if err != nil {
			op.RequestError(w, r, err, nil)
			return
		}
		grant, client, err := op.ValidateRefreshTokenRequest(r.Context(), req, p.op)
		if err != nil {
			op.RequestError(w, r, err, nil)
			return
		}
		access, refresh, validity, err := op.CreateAccessToken(r.Context(), grant, client.AccessTokenType(), p.op, client, req.RefreshToken)
		if err != nil {
			op.RequestError(w, r, err, nil)
			return
		}
		w.Header().Set("Pragma", "no-cache")
		httpapi.WriteJSON(w, http.StatusOK, &oidc.AccessTokenResponse{AccessToken: access, RefreshToken: refresh,
			TokenType: oidc.BearerToken, ExpiresIn: uint64(validity.Seconds()), Scope: grant.GetScopes()})
	})
}

// asksForIDToken reports whether a refresh request's scope names openid.
func asksForIDToken(scope string) bool {
	return slices.Contains(strings.Fields(scope), oidc.ScopeOpenID)
}
