package scim

import (
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
)

// ErrorSchema is the schema of a SCIM error (RFC 7644 3.12).
const ErrorSchema = "urn:ietf:params:scim:api:messages:2.0:Error"

// scimError is an error with the scimType RFC 7644 3.12 gives it.
type scimError struct {
	err      error
	scimType string
}

func (e *scimError) Error() string { return e.err.Error() }
func (e *scimError) Unwrap() error { return e.err }

// typed marks a coded error with a scimType.
func typed(scimType string, err error) error { return &scimError{err: err, scimType: scimType} }

func invalidFilter(format string, args ...any) error {
	return typed("invalidFilter", platform.Errorf(platform.EINVALID, format, args...))
}

func invalidValue(format string, args ...any) error {
	return typed("invalidValue", platform.Errorf(platform.EINVALID, format, args...))
}

func invalidPath(format string, args ...any) error {
	return typed("invalidPath", platform.Errorf(platform.EINVALID, format, args...))
}

func mutability(format string, args ...any) error {
	return typed("mutability", platform.Errorf(platform.EINVALID, format, args...))
}

// writeError answers err in SCIM's error schema, its status from the one
// code→status mapping (httpapi.Status). An internal error is logged and
// answered without its text.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	code := platform.ErrorCode(err)
	status := httpapi.Status(code)
	var se *scimError
	scimType := ""
	if errors.As(err, &se) {
		scimType = se.scimType
	}
	switch {
	case code == platform.ECONFLICT:
		scimType = "uniqueness"
	case code == platform.ETOOLARGE:
		scimType = "tooMany"
	case code == platform.EINVALID && scimType == "":
		scimType = "invalidValue"
	}
	detail := "Internal error; quote the request id when reporting it."
	var pe *platform.Error
	if errors.As(err, &pe) {
		detail = pe.Message
	} else {
		slog.ErrorContext(r.Context(), "internal error", "err", err, "path", r.URL.Path, "request_id", httpapi.RequestID(r.Context()))
	}
	writeErrorStatus(w, r, status, scimType, detail)
}

func writeErrorStatus(w http.ResponseWriter, r *http.Request, status int, scimType, detail string) {
	body := map[string]any{"schemas": []string{ErrorSchema}, "status": strconv.Itoa(status), "detail": detail}
	if scimType != "" {
		body["scimType"] = scimType
	}
	write(w, status, body)
}
