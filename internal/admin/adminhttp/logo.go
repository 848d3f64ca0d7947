package adminhttp

import (
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/branding"
	"github.com/platform/platform/internal/platform"
)

// logoTypes are the media types a logo upload may declare; the service
// decodes the body to tell what it is whatever it declares.
var logoTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "application/octet-stream": true}

// putLogo answers PUT /customers/{id}/branding/logo: the raw image is the
// body (Content-Type image/png, image/jpeg, image/gif or
// application/octet-stream; no multipart), at most branding.MaxLogoBytes.
func (a *API) putLogo(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || !logoTypes[mt] {
		return 0, nil, platform.Errorf(platform.EUNSUPPORTED,
			"the body must be the image itself (Content-Type: image/png, image/jpeg or image/gif)")
	}
	if r.ContentLength > branding.MaxLogoBytes {
		return 0, nil, logoTooLarge()
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, branding.MaxLogoBytes+1))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge) || len(raw) > branding.MaxLogoBytes:
		return 0, nil, logoTooLarge()
	case err != nil:
		return 0, nil, platform.Errorf(platform.EINVALID, "the body could not be read")
	}
	v, err := a.svc.PutCustomerLogo(r.Context(), c, id(r), raw)
	return respond(http.StatusOK, v, err)
}

func logoTooLarge() error {
	return platform.Errorf(platform.ETOOLARGE, "the logo must be at most %d bytes", branding.MaxLogoBytes)
}
