package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
)

// releaseRoutes: platform releases and environment variables, an
// internal-infrastructure resource (R4.6-infra): platform_admin and
// infra_ops write it, compliance_admin and reader read it.
func (a *API) releaseRoutes() []Route {
	const act = authz.ManageReleases
	s := a.svc
	return []Route{
		{Method: http.MethodGet, Pattern: "/releases", Action: act, Handle: a.listReleases},
		{Method: http.MethodPost, Pattern: "/releases", Action: act, Write: true, Handle: withBody(http.StatusCreated, s.CreateRelease)},
		{Method: http.MethodGet, Pattern: "/releases/{id}", Action: act, Handle: byID(http.StatusOK, s.Release)},
		{Method: http.MethodPatch, Pattern: "/releases/{id}", Action: act, Write: true, Handle: byIDWithBody(http.StatusOK, s.UpdateRelease)},
		{Method: http.MethodPost, Pattern: "/releases/{id}/publish", Action: act, Write: true, Handle: byID(http.StatusOK, s.PublishRelease)},
		{Method: http.MethodPost, Pattern: "/releases/{id}/withdraw", Action: act, Write: true, Handle: byID(http.StatusOK, s.WithdrawRelease)},
		{Method: http.MethodGet, Pattern: "/environment", Action: act, Handle: ofCaller(http.StatusOK, s.ListEnvVars)},
		{Method: http.MethodPost, Pattern: "/environment", Action: act, Write: true, Handle: withBody(http.StatusCreated, s.CreateEnvVar)},
		{Method: http.MethodGet, Pattern: "/environment/{id}", Action: act, Handle: byID(http.StatusOK, s.EnvVar)},
		{Method: http.MethodPatch, Pattern: "/environment/{id}", Action: act, Write: true, Handle: byIDWithBody(http.StatusOK, s.UpdateEnvVar)},
		{Method: http.MethodDelete, Pattern: "/environment/{id}", Action: act, Write: true, Handle: deleteByID(s.DeleteEnvVar)},
	}
}

func (a *API) listReleases(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	limit, err := limitParam(r)
	if err != nil {
		return 0, nil, err
	}
	v, err := a.svc.ListReleases(r.Context(), c, limit)
	return respond(http.StatusOK, v, err)
}
