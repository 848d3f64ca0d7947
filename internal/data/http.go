package data

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/cx"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
)

// CSRFHeader is the header the web app sends with every unsafe request
// (httpapi.CSRFHeader).
const CSRFHeader = httpapi.CSRFHeader

// Handler serves the REST routes of the data API (docs/api-data.md): thin
// shims that parse a request, call one Service method and encode its answer.
type Handler struct {
	svc     *Service
	origin  string
	uploads chan struct{} // one token per upload running on this replica (D-admission)
}

// DefaultUploadConcurrency is how many uploads one replica runs at once
// unless NewHandler is told otherwise.
const DefaultUploadConcurrency = 4

// uploadQueueWait is how long an upload waits for a free slot before it is
// answered 503 with Retry-After.
const uploadQueueWait = 2 * time.Second

// NewHandler returns the REST handler of svc for the instance served at
// instanceURL, whose origin is the only one cookie-authenticated unsafe
// requests may come from. concurrency bounds the uploads this replica runs
// at once (0: DefaultUploadConcurrency): an upload holds up to a few hundred
// megabytes while it is decoded and validated.
func NewHandler(svc *Service, instanceURL string, concurrency int) *Handler {
	if concurrency <= 0 {
		concurrency = DefaultUploadConcurrency
	}
	return &Handler{svc: svc, origin: httpapi.Origin(instanceURL), uploads: make(chan struct{}, concurrency)}
}

// admitUpload takes one of the replica's upload slots, waiting briefly for
// one; when none frees up it answers 503 with Retry-After and reports false.
// The body is not read before a slot is held.
func (h *Handler) admitUpload(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	t := time.NewTimer(uploadQueueWait)
	defer t.Stop()
	select {
	case h.uploads <- struct{}{}:
		return func() { <-h.uploads }, true
	case <-t.C:
	case <-r.Context().Done():
	}
	w.Header().Set("Retry-After", "5")
	httpapi.WriteError(w, r, platform.Errorf(platform.EUNAVAILABLE,
		"this server is running as many uploads as it can; try again in a few seconds"))
	return nil, false
}

// Mount adds the routes under /api/v1 to r, behind auth (which puts the
// caller in the request's context) and then the CSRF check, which follows
// how auth found the caller.
func (h *Handler) Mount(r chi.Router, auth func(http.Handler) http.Handler) {
	r.Group(func(r chi.Router) {
		r.Use(auth, h.csrf)
		r.Get("/api/v1/master-record/{masterName}", h.listRecords)
		r.Get("/api/v1/me/tenants", h.myTenants)
		r.Post("/api/v1/cx/upload", h.upload)
	})
}

// csrf refuses an unsafe request whose caller was not authenticated by a
// bearer token unless it comes from the instance's own pages: its Origin
// (or, without one, its Referer) is the instance's, or it carries
// CSRFHeader. What decides is how the caller was authenticated
// (access.Caller.Via), not which headers the request carries: a browser
// sends the session cookie, and Basic credentials it keeps for the host,
// with another site's form post too, and the cookie is what signs such a
// request in.
func (h *Handler) csrf(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			next.ServeHTTP(w, r)
			return
		}
		if access.MustCaller(r.Context()).Via == access.ViaBearer {
			next.ServeHTTP(w, r)
			return
		}
		if httpapi.FromOwnPages(r, h.origin) {
			next.ServeHTTP(w, r)
			return
		}
		httpapi.WriteError(w, r, platform.Errorf(platform.EFORBIDDEN,
			"cross-site request refused: a request signed in by cookie must come from this instance's pages (send the %s header)", CSRFHeader))
	})
}

// listRecords is GET /api/v1/master-record/{masterName} (R4.5-list, D-master).
func (h *Handler) listRecords(w http.ResponseWriter, r *http.Request) {
	q, err := ParseQuery(r.URL.Query())
	if err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	page, err := h.svc.ListMasterRecords(r.Context(), access.MustCaller(r.Context()), chi.URLParam(r, "masterName"), q)
	var unknown *UnknownMasterError
	switch {
	case errors.As(err, &unknown):
		// R7.2-master: 500 Service Exception naming the master, for legacy clients
		httpapi.WriteErrorObject(w, r, http.StatusInternalServerError, "Service Exception", []string{unknown.Error()}, nil)
	case err != nil:
		httpapi.WriteError(w, r, err)
	default:
		httpapi.WriteJSON(w, http.StatusOK, page)
	}
}

// queryKeys are the parameters of a listing.
var queryKeys = []string{"page", "pageSize", "tenantID", "projectID", "parentID", "includeDeleted", "sort"}

// ParseQuery reads a listing's query parameters (D-master). Unknown or
// repeated parameters, empty values and values that are not what they
// should be are EINVALID, each named. parentID=null selects the records
// without a parent.
func ParseQuery(v url.Values) (Query, error) {
	var q Query
	var problems []string
	for k, vals := range v {
		switch {
		case !slices.Contains(queryKeys, k):
			problems = append(problems, fmt.Sprintf("unknown parameter %q; the parameters are %s", k, strings.Join(queryKeys, ", ")))
		case len(vals) > 1:
			problems = append(problems, fmt.Sprintf("parameter %q is given %d times", k, len(vals)))
		case vals[0] == "":
			problems = append(problems, fmt.Sprintf("parameter %q is empty", k))
		}
	}
	if len(problems) > 0 {
		return q, invalid("the listing parameters are not valid", problems)
	}
	var pageErr, sizeErr error
	q.Page, pageErr = platform.RecordPageNumbers.Parse("page", v.Get("page"))
	q.PageSize, sizeErr = platform.RecordPages.Parse("pageSize", v.Get("pageSize"))
	for name, err := range map[string]error{"page": pageErr, "pageSize": sizeErr} {
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s, not %q", platform.ErrorMessage(err), clipValue(v.Get(name))))
		}
	}
	q.TenantID, q.ProjectID, q.Sort = v.Get("tenantID"), v.Get("projectID"), v.Get("sort")
	if p := v.Get("parentID"); p == "null" {
		q.RootsOnly = true
	} else {
		q.ParentID = p
	}
	switch s := v.Get("includeDeleted"); s {
	case "", "false":
	case "true":
		q.IncludeDeleted = true
	default:
		problems = append(problems, fmt.Sprintf("includeDeleted must be true or false, not %q", clipValue(s)))
	}
	problems = append(problems, q.filterProblems()...)
	return q, invalid("the listing parameters are not valid", problems)
}

// clipValue shortens a value quoted in a message.
func clipValue(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}

// myTenants is GET /api/v1/me/tenants.
func (h *Handler) myTenants(w http.ResponseWriter, r *http.Request) {
	out, err := h.svc.MyTenants(r.Context(), access.MustCaller(r.Context()))
	if err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, out)
}

// upload is POST /api/v1/cx/upload (D-cx): a JSON body, or a multipart form
// with a .csv or .xlsx file and scheduleId (R4.5-cx-same).
func (h *Handler) upload(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	c := access.MustCaller(ctx)
	if err := h.svc.AuthorizeUpload(ctx, c); err != nil { // before reading a byte of the body
		httpapi.WriteError(w, r, err)
		return
	}
	opts, err := uploadOptions(r)
	if err != nil {
		httpapi.WriteError(w, r, err)
		return
	}
	if r.ContentLength > MaxUploadBytes {
		writeUploadError(w, r, tooLarge())
		return
	}
	release, ok := h.admitUpload(w, r)
	if !ok {
		return
	}
	defer release()
	var req *cx.Request
	switch ct, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct {
	case "application/json":
		req, err = DecodeJSON(r.Body)
	case "multipart/form-data":
		req, err = decodeMultipart(ctx, r.Body, params["boundary"])
	default:
		httpapi.WriteError(w, r, platform.Errorf(platform.EUNSUPPORTED,
			"the body must be application/json, or multipart/form-data with a .csv or .xlsx file"))
		return
	}
	if err != nil {
		writeUploadError(w, r, err)
		return
	}
	res, err := h.svc.Upload(ctx, c, req, opts)
	if err != nil {
		writeUploadError(w, r, err)
		return
	}
	if res.Replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	if res.Warnings == nil {
		res.Warnings = []cx.Issue{}
	}
	httpapi.WriteJSON(w, http.StatusOK, res)
}

// uploadOptions reads ?dryRun= and the Idempotency-Key header.
func uploadOptions(r *http.Request) (UploadOptions, error) {
	opts := UploadOptions{IdempotencyKey: r.Header.Get("Idempotency-Key")}
	var problems []string
	for k, vals := range r.URL.Query() {
		if k != "dryRun" {
			problems = append(problems, fmt.Sprintf("unknown parameter %q; the only parameter is dryRun", k))
			continue
		}
		switch {
		case len(vals) == 1 && vals[0] == "true":
			opts.DryRun = true
		case len(vals) == 1 && vals[0] == "false":
		default:
			problems = append(problems, "dryRun must be given once, as true or false")
		}
	}
	if len(r.Header.Values("Idempotency-Key")) > 1 {
		problems = append(problems, "Idempotency-Key is given more than once")
	}
	return opts, invalid("the upload parameters are not valid", problems)
}

// decodeMultipart reads a form with the parts scheduleId and file (the
// spreadsheet); other parts are refused. The whole body counts against
// MaxUploadBytes. Reading the spreadsheet stops when ctx ends.
func decodeMultipart(ctx context.Context, body io.Reader, boundary string) (*cx.Request, error) {
	if boundary == "" {
		return nil, &InputError{Code: cx.CodeInvalidRequest, Message: "the multipart body has no boundary"}
	}
	lr := &limitReader{r: body, n: MaxUploadBytes}
	mr := multipart.NewReader(lr, boundary)
	var scheduleID, filename string
	var file []byte
	var seenSchedule, seenFile bool
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			if lr.over {
				return nil, tooLarge()
			}
			return nil, &InputError{Code: cx.CodeInvalidRequest, Message: "the multipart body cannot be read: " + err.Error()}
		}
		name := part.FormName()
		switch {
		case name == "scheduleId" && !seenSchedule && part.FileName() == "":
			seenSchedule = true
			b, err := io.ReadAll(io.LimitReader(part, 1025))
			if err == nil && len(b) > 1024 {
				return nil, &InputError{Code: cx.CodeInvalidRequest, Message: "scheduleId is longer than 1024 bytes"}
			}
			scheduleID = string(b)
		case name == "file" && !seenFile:
			seenFile = true
			filename = part.FileName()
			file, err = io.ReadAll(part)
		default:
			return nil, &InputError{Code: cx.CodeInvalidRequest,
				Message: fmt.Sprintf("the form part %q is not expected; send scheduleId and file once each", name)}
		}
		if err != nil {
			if lr.over {
				return nil, tooLarge()
			}
			return nil, &InputError{Code: cx.CodeInvalidRequest, Message: "the multipart body cannot be read: " + err.Error()}
		}
	}
	if !seenFile {
		return nil, &InputError{Code: cx.CodeInvalidRequest, Message: "the form has no file part; send the spreadsheet as the part named file"}
	}
	if strings.TrimSpace(scheduleID) == "" {
		return nil, &InputError{Code: cx.CodeScheduleIDRequired, Message: "scheduleId is required (a form field next to the file)"}
	}
	return decodeSheet(ctx, file, filename, scheduleID)
}

// uploadStatus is the HTTP status of a request-level upload code (D-cx).
func uploadStatus(code string) int {
	switch code {
	case cx.CodeDataEmpty:
		return http.StatusUnprocessableEntity
	case cx.CodeRowsLimit, cx.CodeSheetTooLarge, CodeBodyTooLarge:
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusBadRequest
}

// summaries are the 7.1 summaries of the statuses the upload answers
// beside httpapi.WriteError, in its words.
var summaries = map[int]string{
	http.StatusBadRequest:            "Bad Request",
	http.StatusRequestEntityTooLarge: "Payload Too Large",
	http.StatusUnprocessableEntity:   "Unprocessable Entity",
}

// requestIssue is the one entry of errors[] of a request-level failure.
type requestIssue struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// writeUploadError answers an upload's error: request-level failures and
// broken rules as the 7.1 object with the structured errors beside it,
// anything else through httpapi.WriteError.
func writeUploadError(w http.ResponseWriter, r *http.Request, err error) {
	var in *InputError
	var verr *ValidationError
	switch {
	case errors.As(err, &in):
		status := uploadStatus(in.Code)
		httpapi.WriteErrorObject(w, r, status, summaries[status], []string{in.Message},
			map[string]any{"errors": []requestIssue{{Code: in.Code, Message: in.Message}}})
	case errors.As(err, &verr):
		if verr.Replayed {
			w.Header().Set("Idempotent-Replayed", "true")
		}
		rep := verr.Report
		warnings := rep.Warnings
		if warnings == nil {
			warnings = []cx.Issue{}
		}
		httpapi.WriteErrorObject(w, r, http.StatusUnprocessableEntity, summaries[http.StatusUnprocessableEntity], verr.Messages(), map[string]any{
			"scheduleId": verr.ScheduleID, "dryRun": verr.DryRun, "errors": rep.Errors, "warnings": warnings,
			"truncated": rep.Truncated, "summary": rep.Summary,
		})
	default:
		httpapi.WriteError(w, r, err)
	}
}
