package idp

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/secrets"
)

// mgmtAPI is the management API: organizations with their login policy
// and external providers, users, applications.
type mgmtAPI struct {
	*core
	op         *op.Provider
	origins    *corsOrigins // forgotten when an application's redirect URIs change
	ssoClients *ssoClients
}

// PathManagement is the prefix of the management API (docs/idp-management-api.md).
const PathManagement = "/management/v1"

// managementRoutes serves the API the console uses to register applications,
// read organizations with their policies and providers, and manage users. A
// caller authenticates with an access token of a service application that is
// allowed to manage (client_credentials).
func (p *mgmtAPI) managementRoutes() http.Handler {
	r := chi.NewRouter()
	r.Use(p.requireServiceClient)
	r.Get("/organizations", p.mgmtListOrganizations)
	r.Get("/organizations/{orgID}", p.mgmtGetOrganization)
	r.Put("/organizations/{orgID}/login-policy", p.mgmtPutPolicy)
	r.Post("/organizations/{orgID}/identity-providers", p.mgmtCreateIDP)
	r.Delete("/identity-providers/{idpID}", p.mgmtDeleteIDP)
	r.Post("/applications", p.mgmtCreateApp)
	r.Get("/applications/{appID}", p.mgmtGetApp)
	r.Put("/applications/{appID}", p.mgmtUpdateApp)
	r.Delete("/applications/{appID}", p.mgmtDeleteApp)
	r.Post("/applications/{appID}/rotate", p.mgmtRotateApp)
	r.Post("/applications/{appID}/rotate-secret", p.mgmtRotateAppSecret)
	r.Post("/users", p.mgmtCreateUser)
	r.Get("/users", p.mgmtFindUsers)
	return r
}

func (p *mgmtAPI) requireServiceClient(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || raw == "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="management"`)
			httpapi.WriteError(w, r, platform.Errorf(platform.EUNAUTHORIZED, "a bearer token of a service application is required"))
			return
		}
		ctx := op.ContextWithIssuer(r.Context(), p.cfg.Issuer)
		claims, err := op.VerifyAccessToken[*oidc.AccessTokenClaims](ctx, raw, p.op.AccessTokenVerifier(ctx))
		if err == nil {
			_, err = p.store.ActiveAccessToken(r.Context(), claims.JWTID, p.now())
		}
		if err == nil && hasConfirmation(raw) { // bearer tokens only: a DPoP-bound one is refused (D-dpop)
			err = errors.New("a DPoP-bound token is no bearer token")
		}
		var app *platform.Application
		if err == nil {
			app, err = p.application(r.Context(), claims.Subject)
		}
		if err != nil || app.Kind != platform.AppService {
			slog.DebugContext(r.Context(), "management token refused", "err", err)
			w.Header().Set("WWW-Authenticate", `Bearer realm="management", error="invalid_token"`)
			httpapi.WriteError(w, r, platform.Errorf(platform.EUNAUTHORIZED, "the access token is not valid"))
			return
		}
		if !app.Management {
			httpapi.WriteError(w, r, platform.Errorf(platform.EFORBIDDEN, "this application may not use the management API"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

type orgView struct {
	ID                string                `json:"id"`
	Name              string                `json:"name"`
	LoginPolicy       *platform.LoginPolicy `json:"loginPolicy"`
	IdentityProviders []idpView             `json:"identityProviders"`
}

type idpView struct {
	ID       string   `json:"id"`
	OrgID    string   `json:"orgId"`
	Name     string   `json:"name"`
	Issuer   string   `json:"issuer"`
	ClientID string   `json:"clientId"`
	Scopes   []string `json:"scopes"`
}

func newIDPView(x *platform.ExternalIDP) idpView {
	scopes := x.Scopes
	if scopes == nil {
		scopes = []string{}
	}
	return idpView{ID: x.ID, OrgID: x.OrgID, Name: x.Name, Issuer: x.Issuer, ClientID: x.ClientID, Scopes: scopes}
}

func (p *mgmtAPI) orgView(ctx context.Context, o *platform.Organization, idps []*platform.ExternalIDP) (orgView, error) {
	policy, err := p.store.LoginPolicy(ctx, o.ID)
	if err != nil {
		return orgView{}, err
	}
	v := orgView{ID: o.ID, Name: o.Name, LoginPolicy: policy, IdentityProviders: []idpView{}}
	for _, x := range idps {
		if x.OrgID == o.ID {
			v.IdentityProviders = append(v.IdentityProviders, newIDPView(x))
		}
	}
	return v, nil
}

func (p *mgmtAPI) mgmtListOrganizations(w http.ResponseWriter, r *http.Request) {
	out, err := p.organizations(r.Context())
	answer(w, r, http.StatusOK, map[string]any{"organizations": out}, err)
}

// organizations are the views of every organization.
func (p *mgmtAPI) organizations(ctx context.Context) ([]orgView, error) {
	orgs, err := p.store.Organizations(ctx)
	if err != nil {
		return nil, err
	}
	idps, err := p.store.ExternalIDPs(ctx, "")
	if err != nil {
		return nil, err
	}
	out := make([]orgView, 0, len(orgs))
	for _, o := range orgs {
		v, err := p.orgView(ctx, o, idps)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (p *mgmtAPI) mgmtGetOrganization(w http.ResponseWriter, r *http.Request) {
	v, err := p.organization(r.Context(), chi.URLParam(r, "orgID"))
	answer(w, r, http.StatusOK, v, err)
}

// organization is the view of one organization: its login policy and
// external providers.
func (p *mgmtAPI) organization(ctx context.Context, orgID string) (orgView, error) {
	o, err := p.store.Organization(ctx, orgID)
	if err != nil {
		return orgView{}, err
	}
	idps, err := p.store.ExternalIDPs(ctx, o.ID)
	if err != nil {
		return orgView{}, err
	}
	return p.orgView(ctx, o, idps)
}

func (p *mgmtAPI) mgmtPutPolicy(w http.ResponseWriter, r *http.Request) {
	// the body replaces the policy; the security policy's settings it leaves
	// out (D-org-policy) stay as they are
	def := platform.DefaultLoginPolicy("")
	// (and passwordCheckCommon, when left out, is on: it cannot be turned off)
	in := platform.LoginPolicy{MFAByTOTP: def.MFAByTOTP, MFAByPasskey: def.MFAByPasskey, MFABySSO: def.MFABySSO,
		PasswordCheckCommon: true}
	if cur, err := p.store.LoginPolicy(r.Context(), chi.URLParam(r, "orgID")); err == nil {
		in.SessionIdleSeconds, in.SessionMaxSeconds = cur.SessionIdleSeconds, cur.SessionMaxSeconds
		in.MFAByTOTP, in.MFAByPasskey, in.MFABySSO = cur.MFAByTOTP, cur.MFAByPasskey, cur.MFABySSO
	}
	if err := httpapi.DecodeJSON(r, &in); err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	in.OrgID, in.UpdatedAt = chi.URLParam(r, "orgID"), p.now()
	err := p.putPolicy(r.Context(), &in) // the stored policy is answered
	answer(w, r, http.StatusOK, in, err)
}

// putPolicy sets an organization's login policy, which must hold with the
// external providers the organization has (platform.LoginPolicy.Validate).
func (p *mgmtAPI) putPolicy(ctx context.Context, in *platform.LoginPolicy) error {
	if _, err := p.store.Organization(ctx, in.OrgID); err != nil {
		return err
	}
	idps, err := p.store.ExternalIDPs(ctx, in.OrgID)
	if err != nil {
		return err
	}
	if err := in.Validate(len(idps)); err != nil {
		return err
	}
	return p.store.PutLoginPolicy(ctx, in)
}

// decoded is the request's JSON body as an In; a body that is not one is
// answered.
func decoded[In any](w http.ResponseWriter, r *http.Request) (In, bool) {
	var in In
	if err := httpapi.DecodeJSON(r, &in); err != nil {
		httpapi.WriteError(w, r, err)
		return in, false
	}
	return in, true
}

// answer writes v with status, or err.
func answer(w http.ResponseWriter, r *http.Request, status int, v any, err error) {
	if err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	httpapi.WriteJSON(w, status, v)
}

// registerExternalIDP stores an external provider with its client secret
// sealed. With checkDiscovery (an issuer someone gave) it first checks the
// issuer against the egress policy, as a webhook URL is checked (an
// internal address is refused, EINVALID, before anything is dialled), then
// reads its discovery document, so a misconfigured provider is refused up
// front (EINVALID).
func (p *mgmtAPI) registerExternalIDP(ctx context.Context, x *platform.ExternalIDP, secret string, checkDiscovery bool) error {
	if err := x.Validate(); err != nil {
		return err
	}
	if checkDiscovery {
		if err := p.cfg.Egress.CheckURL(ctx, x.Issuer); errors.Is(err, egress.ErrBlocked) {
			return platform.Errorf(platform.EINVALID, "issuer must reach a public address; the egress policy refuses this one")
		}
		dctx, cancel := context.WithTimeout(ctx, ssoBudget)
		_, err := p.ssoClients.provider(dctx, x.Issuer)
		cancel()
		if err != nil {
			// what the issuer answered stays out of the message (it is not ours to relay)
			return platform.Errorf(platform.EINVALID, "the issuer's discovery document could not be read: %s", describeUpstream(err))
		}
	}
	x.SecretSealed = p.sealer.Seal([]byte(secret), secrets.LabelIDPSecret(x.ID))
	return p.store.CreateExternalIDP(ctx, x)
}

type createIDPRequest struct {
	Name         string   `json:"name"`
	Issuer       string   `json:"issuer"`
	ClientID     string   `json:"clientId"`
	ClientSecret string   `json:"clientSecret"`
	Scopes       []string `json:"scopes"`
}

// mgmtCreateIDP registers an external provider after checking that its
// discovery document answers, so a misconfigured provider is refused up front.
func (p *mgmtAPI) mgmtCreateIDP(w http.ResponseWriter, r *http.Request) {
	in, ok := decoded[createIDPRequest](w, r)
	if !ok {
		return
	}
	v, err := p.createIDP(r.Context(), chi.URLParam(r, "orgID"), in)
	answer(w, r, http.StatusCreated, v, err)
}

// createIDP registers an external provider of an organization, with its
// client secret; the issuer is checked (registerExternalIDP).
func (p *mgmtAPI) createIDP(ctx context.Context, orgID string, in createIDPRequest) (idpView, error) {
	org, err := p.store.Organization(ctx, orgID)
	if err != nil {
		return idpView{}, err
	}
	if in.ClientSecret == "" {
		return idpView{}, platform.Errorf(platform.EINVALID, "clientSecret is required")
	}
	x := &platform.ExternalIDP{ID: uuid.NewString(), OrgID: org.ID, Name: strings.TrimSpace(in.Name),
		Issuer: strings.TrimSpace(in.Issuer), ClientID: in.ClientID, Scopes: in.Scopes, CreatedAt: p.now()}
	return newIDPView(x), p.registerExternalIDP(ctx, x, in.ClientSecret, true)
}

func (p *mgmtAPI) mgmtDeleteIDP(w http.ResponseWriter, r *http.Request) {
	if err := p.deleteIDP(r.Context(), chi.URLParam(r, "idpID")); err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// deleteIDP removes an external provider, unless the organization's login
// policy would no longer hold without it (ECONFLICT: the last provider of
// an organization that signs in only through them).
func (p *mgmtAPI) deleteIDP(ctx context.Context, idpID string) error {
	x, err := p.store.ExternalIDP(ctx, idpID)
	if err != nil {
		return err
	}
	policy, err := p.store.LoginPolicy(ctx, x.OrgID)
	if err != nil {
		return err
	}
	idps, err := p.store.ExternalIDPs(ctx, x.OrgID)
	if err != nil {
		return err
	}
	if err := policy.Validate(len(idps) - 1); err != nil {
		return platform.Errorf(platform.ECONFLICT,
			"the organization signs in only through external providers; allow passwords before removing the last one")
	}
	return p.store.DeleteExternalIDP(ctx, x.ID)
}

type userRequest struct {
	OrgID         string `json:"orgId"`
	Email         string `json:"email"`
	Name          string `json:"name"`
	Password      string `json:"password"`
	EmailVerified bool   `json:"emailVerified"`
}

type userView struct {
	ID            string `json:"id"`
	OrgID         string `json:"orgId"`
	Email         string `json:"email"`
	EmailVerified bool   `json:"emailVerified"`
	Name          string `json:"name"`
}

func newUserView(u *platform.User) userView {
	return userView{ID: u.ID, OrgID: u.OrgID, Email: u.Email, EmailVerified: u.EmailVerified, Name: u.Name}
}

// mgmtCreateUser creates a user, with a password when one is given (checked
// against the organization's password rules; refused where the organization
// allows no password sign-in, D-account-policy).
func (p *mgmtAPI) mgmtCreateUser(w http.ResponseWriter, r *http.Request) {
	in, ok := decoded[userRequest](w, r)
	if !ok {
		return
	}
	v, err := p.createUser(r.Context(), in)
	answer(w, r, http.StatusCreated, v, err)
}

// createUser creates a user of an organization; a password is set only
// where the organization's rules have passwords, and must meet them.
func (p *mgmtAPI) createUser(ctx context.Context, in userRequest) (userView, error) {
	email := platform.NormalizeEmail(in.Email)
	var problems []string
	if !platform.ValidEmail(email) {
		problems = append(problems, "email must be an e-mail address")
	}
	if strings.TrimSpace(in.Name) == "" || len(in.Name) > 200 {
		problems = append(problems, "name is required (at most 200 characters)")
	}
	if len(problems) > 0 {
		return userView{}, &platform.Error{Code: platform.EINVALID, Message: "invalid user", Details: problems}
	}
	policy, err := p.loginRules(ctx, in.OrgID)
	if err != nil {
		return userView{}, err
	}
	now := p.now().UTC().Truncate(time.Microsecond)
	u := &platform.User{ID: uuid.NewString(), OrgID: in.OrgID, Email: email, EmailVerified: in.EmailVerified,
		Name: strings.TrimSpace(in.Name), CreatedAt: now, UpdatedAt: now}
	if in.Password != "" {
		if !policy.passwords() {
			return userView{}, platform.Errorf(platform.EINVALID,
				"the organization allows no password sign-in; create the user without a password")
		}
		if err := CheckPassword(policy.LoginPolicy, in.Password, email); err != nil {
			return userView{}, err
		}
		if u.PasswordHash, err = HashPassword(in.Password, p.cfg.Password); err != nil {
			return userView{}, err
		}
	}
	return newUserView(u), p.store.CreateUser(ctx, u)
}

// mgmtFindUsers finds the users with an address, in every organization.
func (p *mgmtAPI) mgmtFindUsers(w http.ResponseWriter, r *http.Request) {
	email := platform.NormalizeEmail(r.URL.Query().Get("email"))
	if !platform.ValidEmail(email) {
		httpapi.WriteError(w, r, platform.Errorf(platform.EINVALID, "query parameter email must be an e-mail address"))
		return
	}
	users, err := p.store.UsersByEmail(r.Context(), email, r.URL.Query().Get("orgId"))
	if err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	out := make([]userView, 0, len(users))
	for _, u := range users {
		out = append(out, newUserView(u))
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"users": out})
}
