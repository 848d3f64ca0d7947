package httpapi

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/platform/platform/internal/platform"
)

// ErrorObject is the error body of the data and console APIs (R7.1-shape).
type ErrorObject struct {
	Code      int         `json:"code"`
	Timestamp string      `json:"timestamp"`
	Path      string      `json:"path"`
	Error     ErrorDetail `json:"error"`
	RequestID string      `json:"requestId,omitempty"`
	// Extra carries structured details of some errors (e.g. cx validation).
	Extra map[string]any `json:"-"`
}

// ErrorDetail is the error member of the 7.1 object.
type ErrorDetail struct {
	Summary string   `json:"summary"`
	Detail  []string `json:"detail"`
}

// Status maps an error code to its HTTP status. It is the only such
// mapping; a code it does not know is 500.
func Status(code string) int {
	if st, ok := statuses[code]; ok {
		return st
	}
	return http.StatusInternalServerError
}

var statuses = map[string]int{
	platform.EINVALID:      http.StatusBadRequest,
	platform.EUNAUTHORIZED: http.StatusUnauthorized,
	platform.EFORBIDDEN:    http.StatusForbidden,
	platform.ENOTFOUND:     http.StatusNotFound,
	platform.ECONFLICT:     http.StatusConflict,
	platform.ELIMIT:        http.StatusTooManyRequests,
	platform.ETOOLARGE:     http.StatusRequestEntityTooLarge,
	platform.EUNSUPPORTED:  http.StatusUnsupportedMediaType,
	platform.EUNAVAILABLE:  http.StatusServiceUnavailable,
}

var summaries = map[int]string{
	http.StatusBadRequest:            "Bad Request",
	http.StatusUnauthorized:          "Unauthorized",
	http.StatusForbidden:             "Forbidden",
	http.StatusNotFound:              "Not Found",
	http.StatusConflict:              "Conflict",
	http.StatusRequestEntityTooLarge: "Payload Too Large",
	http.StatusUnsupportedMediaType:  "Unsupported Media Type",
	http.StatusUnprocessableEntity:   "Unprocessable Entity",
	http.StatusTooManyRequests:       "Too Many Requests",
	http.StatusInternalServerError:   "Service Exception",
	http.StatusServiceUnavailable:    "Service Unavailable",
}

// RetryAfterUnavailable is the Retry-After of a 503: the database was down
// or too busy to answer within the request's time.
const RetryAfterUnavailable = "2"

// WriteError answers err as the 7.1 object. Internal errors are logged with
// the request id and reach the caller only as a generic message.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	code := platform.ErrorCode(err)
	status := Status(code)
	var detail []string
	var pe *platform.Error
	if errors.As(err, &pe) {
		detail = append(detail, pe.Message)
		detail = append(detail, pe.Details...)
		if status == http.StatusServiceUnavailable {
			if w.Header().Get("Retry-After") == "" {
				w.Header().Set("Retry-After", RetryAfterUnavailable)
			}
			slog.WarnContext(r.Context(), "service unavailable", "err", err, "path", r.URL.Path, "request_id", RequestID(r.Context()))
		}
	} else {
		slog.ErrorContext(r.Context(), "internal error", "err", err, "path", r.URL.Path, "request_id", RequestID(r.Context()))
		detail = []string{"Internal error; quote the request id when reporting it."}
	}
	WriteErrorObject(w, r, status, summaries[status], detail, nil)
}

// WriteErrorObject writes a 7.1 object with an explicit status and summary;
// extra members (such as "errors") are added at the top level.
func WriteErrorObject(w http.ResponseWriter, r *http.Request, status int, summary string, detail []string, extra map[string]any) {
	if summary == "" {
		summary = http.StatusText(status)
	}
	if detail == nil {
		detail = []string{}
	}
	body := map[string]any{
		"code":      status,
		"timestamp": time.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00"),
		"path":      r.URL.Path,
		"error":     ErrorDetail{Summary: summary, Detail: detail},
		"requestId": RequestID(r.Context()),
	}
	for k, v := range extra {
		body[k] = v
	}
	WriteJSON(w, status, body)
}

// WriteJSON writes v as a JSON response.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(true)
	_ = enc.Encode(v)
}
