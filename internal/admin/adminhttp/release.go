package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
)

// releaseRoutes: platform releases and environment variables, an
// internal-infrastructure resource (R4.6-infra): platform_admin and
// infra_ops write it, compliance_admin and reader read it.
func (a *API) releaseRoutes() []Route {
	s := a.svc
	return []Route{
		{Method: http.MethodGet, Pattern: "/releases", Op: admin.OpReleaseList, Handle: a.listReleases},
		{Method: http.MethodPost, Pattern: "/releases", Op: admin.OpReleaseCreate, Handle: withBody(http.StatusCreated, s.CreateRelease)},
		{Method: http.MethodGet, Pattern: "/releases/{id}", Op: admin.OpReleaseGet, Handle: byID(http.StatusOK, s.Release)},
		{Method: http.MethodPatch, Pattern: "/releases/{id}", Op: admin.OpReleaseUpdate, Handle: byIDWithBody(http.StatusOK, s.UpdateRelease)},
		{Method: http.MethodPost, Pattern: "/releases/{id}/publish", Op: admin.OpReleasePublish, Handle: byID(http.StatusOK, s.PublishRelease)},
		{Method: http.MethodPost, Pattern: "/releases/{id}/withdraw", Op: admin.OpReleaseWithdraw, Handle: byID(http.StatusOK, s.WithdrawRelease)},
		{Method: http.MethodGet, Pattern: "/environment", Op: admin.OpEnvVarList, Handle: ofCaller(http.StatusOK, s.ListEnvVars)},
		{Method: http.MethodPost, Pattern: "/environment", Op: admin.OpEnvVarCreate, Handle: withBody(http.StatusCreated, s.CreateEnvVar)},
		{Method: http.MethodGet, Pattern: "/environment/{id}", Op: admin.OpEnvVarGet, Handle: byID(http.StatusOK, s.EnvVar)},
		{Method: http.MethodPatch, Pattern: "/environment/{id}", Op: admin.OpEnvVarUpdate, Handle: byIDWithBody(http.StatusOK, s.UpdateEnvVar)},
		{Method: http.MethodDelete, Pattern: "/environment/{id}", Op: admin.OpEnvVarDelete, Handle: deleteByID(s.DeleteEnvVar)},
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
