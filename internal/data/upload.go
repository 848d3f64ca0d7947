package data

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/cx"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Upload statuses.
const (
	StatusApplied = "applied" // saved
	StatusValid   = "valid"   // a dry run that would be saved
)

// UploadOptions modify an upload.
type UploadOptions struct {
	// DryRun validates without saving.
	DryRun bool
	// IdempotencyKey, when set, makes a repeated request with the same key
	// and the same content answer what the first one answered, without
	// applying it again. 1 to 255 visible ASCII characters; kept for
	// IdempotencyTTL per caller.
	IdempotencyKey string
}

// Result is the answer to an upload that broke no rule.
type Result struct {
	ScheduleID string     `json:"scheduleId"`
	DryRun     bool       `json:"dryRun"`
	Status     string     `json:"status"`
	Summary    cx.Summary `json:"summary"`
	Warnings   []cx.Issue `json:"warnings"`
	// Replayed is set when this is the answer kept for the Idempotency-Key.
	Replayed bool `json:"-"`
}

// ValidationError is an upload that broke rules; nothing was saved. Report
// lists every error (up to cx.MaxErrors) sorted by row, then field. It
// unwraps to EINVALID; REST answers it with 422.
type ValidationError struct {
	ScheduleID string     `json:"scheduleId"`
	DryRun     bool       `json:"dryRun"`
	Report     *cx.Report `json:"report"`
	// Replayed is set when this is the answer kept for the Idempotency-Key.
	Replayed bool `json:"-"`
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("the upload breaks %d rules; nothing was saved", e.Report.Summary.Errors)
}

// Messages returns one message per listed error.
func (e *ValidationError) Messages() []string {
	out := make([]string, len(e.Report.Errors))
	for i, is := range e.Report.Errors {
		out[i] = is.Message
	}
	return out
}

// Unwrap gives the error its code, EINVALID, with one detail per error.
func (e *ValidationError) Unwrap() error {
	pe := platform.Errorf(platform.EINVALID, "%s", e.Error())
	pe.Details = e.Messages()
	return pe
}

// Upload validates a cx upload against the rows stored in its schedule
// and, when it breaks no rule and is no dry run, upserts its rows by ID, all
// or nothing (D-cx). The caller must hold the portal role owner, admin or
// member of the schedule's customer (D-data-access).
//
// Errors: EFORBIDDEN for a role that may not upload; ENOTFOUND for a
// schedule that does not exist or that c may not see; *InputError for an
// empty, oversized or schedule-less request; EINVALID for a malformed
// Idempotency-Key; ECONFLICT when the key was used for another request or
// a request with it is still running; *ValidationError when rules are
// broken.
func (s *Service) Upload(ctx context.Context, c *access.Caller, req *cx.Request, opts UploadOptions) (*Result, error) {
	if err := s.AuthorizeUpload(ctx, c); err != nil {
		return nil, err
	}
	if err := checkRequest(req); err != nil {
		return nil, err
	}
	if err := checkKey(opts.IdempotencyKey); err != nil {
		return nil, err
	}
	sc, err := s.store.Schedule(ctx, req.ScheduleID)
	if err == nil {
		// another customer's schedule answers as a missing one (audited without that customer)
		err = s.access.Check(ctx, c, authz.UploadCxData, authz.Resource{CustomerID: sc.CustomerID}, true)
	}
	switch platform.ErrorCode(err) {
	case "":
	case platform.ENOTFOUND:
		return nil, platform.Errorf(platform.ENOTFOUND, "schedule %q not found", req.ScheduleID)
	case platform.EFORBIDDEN:
		return nil, errUploadRole
	default:
		return nil, err
	}

	var hash string
	if opts.IdempotencyKey != "" {
		if hash, err = requestHash(req, opts.DryRun); err != nil {
			return nil, err
		}
		if found, res, err := s.replay(ctx, s.store, c, opts.IdempotencyKey, hash); found || err != nil {
			return res, err
		}
	}

	var res *Result
	var verr *ValidationError
	var replayed bool
	var replayRes *Result
	var replayErr error
	err = s.store.InTx(ctx, func(tx *store.Store) error {
		res, verr, replayed, replayRes, replayErr = nil, nil, false, nil, nil
		if err := tx.LockSchedule(ctx, sc.ID); err != nil {
			return err
		}
		if hash != "" { // a request with the same key may have finished while this one waited for the lock
			found, r, err := s.replay(ctx, tx, c, opts.IdempotencyKey, hash)
			if found {
				replayed, replayRes, replayErr = true, r, err
				return nil
			} else if err != nil {
				return err
			}
		}
		existing, err := tx.ScheduleRows(ctx, sc.ID)
		if err != nil {
			return err
		}
		rep := cx.Validate(req, existing)
		status := 200
		if !rep.OK() {
			verr = &ValidationError{ScheduleID: sc.ID, DryRun: opts.DryRun, Report: rep}
			status = 422
		} else {
			res = &Result{ScheduleID: sc.ID, DryRun: opts.DryRun, Status: StatusValid, Summary: rep.Summary, Warnings: rep.Warnings}
			if !opts.DryRun {
				created, updated := changedRows(req.Rows, existing)
				if err := tx.InsertScheduleRows(ctx, sc.ID, created, s.now()); err != nil {
					return err
				}
				if err := tx.UpsertScheduleRows(ctx, sc.ID, updated, s.now()); err != nil {
					return err
				}
				res.Status = StatusApplied
			}
		}
		if hash == "" {
			return nil
		}
		return s.keep(ctx, tx, c, opts.IdempotencyKey, hash, status, outcome{Result: res, Invalid: verr})
	})
	if platform.ErrorCode(err) == platform.ECONFLICT && hash != "" {
		// another request with the key committed first: answer as it did, or refuse
		if found, r, err := s.replay(ctx, s.store, c, opts.IdempotencyKey, hash); found || err != nil {
			return r, err
		}
		return nil, platform.Errorf(platform.ECONFLICT, "a request with this Idempotency-Key is still being processed; retry later")
	}
	switch {
	case err != nil:
		return nil, err
	case replayed:
		return replayRes, replayErr
	case verr != nil:
		return nil, verr
	}
	return res, nil
}

// AuthorizeUpload checks, before anything is read, that c's role may upload
// cx data at all (authz.UploadCxData): EFORBIDDEN (audited) when not.
// Upload checks again, with the schedule's customer.
func (s *Service) AuthorizeUpload(ctx context.Context, c *access.Caller) error {
	if c == nil {
		return platform.Errorf(platform.EUNAUTHORIZED, "authentication is required")
	}
	if err := s.access.CheckRole(ctx, c, authz.UploadCxData, true); err != nil {
		return errUploadRole
	}
	return nil
}

// checkRequest refuses what the decoders refuse, for callers that build a
// request themselves.
func checkRequest(req *cx.Request) error {
	switch {
	case req == nil || strings.TrimSpace(req.ScheduleID) == "":
		return &InputError{Code: cx.CodeScheduleIDRequired, Message: "scheduleId is required"}
	case len(req.Rows) == 0:
		return &InputError{Code: cx.CodeDataEmpty, Message: "data must hold at least one row"}
	case len(req.Rows) > MaxUploadRows:
		return &InputError{Code: cx.CodeRowsLimit, Message: fmt.Sprintf("an upload holds at most %d rows", MaxUploadRows)}
	}
	return nil
}

// checkKey refuses an Idempotency-Key that is not 1 to 255 visible ASCII characters.
func checkKey(key string) error {
	if key == "" {
		return nil
	}
	ok := len(key) <= 255
	for i := 0; ok && i < len(key); i++ {
		ok = key[i] > ' ' && key[i] < 0x7f
	}
	if !ok {
		return platform.Errorf(platform.EINVALID, "Idempotency-Key must be 1 to 255 visible ASCII characters")
	}
	return nil
}

// changedRows splits the rows an upsert has to write: those the schedule
// does not hold (created) and those that differ from the stored row of
// their ID (updated). Rows equal to the stored row are left out.
func changedRows(rows, existing []cx.Row) (created, updated []cx.Row) {
	stored := make(map[string]*cx.Row, len(existing))
	for i := range existing {
		stored[existing[i].ID] = &existing[i]
	}
	kind := make([]int8, len(rows)) // 1 created, 2 updated
	nc, nu := 0, 0
	for i := range rows {
		switch old, ok := stored[rows[i].ID]; {
		case !ok:
			kind[i], nc = 1, nc+1
		case *old != rows[i]:
			kind[i], nu = 2, nu+1
		}
	}
	created, updated = make([]cx.Row, 0, nc), make([]cx.Row, 0, nu)
	for i, k := range kind {
		switch k {
		case 1:
			created = append(created, rows[i])
		case 2:
			updated = append(updated, rows[i])
		}
	}
	return created, updated
}

// requestHash identifies an upload's content: the same rows and keys give
// the same hash whether they came as JSON or as a spreadsheet.
func requestHash(req *cx.Request, dryRun bool) (string, error) {
	h := sha256.New()
	enc := json.NewEncoder(h)
	if err := enc.Encode([]any{req.ScheduleID, dryRun, req.FieldIssues, req.Warnings}); err != nil {
		return "", err
	}
	for i := range req.Rows {
		if err := enc.Encode(&req.Rows[i]); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// outcome is the answer kept for an Idempotency-Key.
type outcome struct {
	Result  *Result          `json:"result,omitempty"`
	Invalid *ValidationError `json:"invalid,omitempty"`
}

// keep stores the answer to a request with an Idempotency-Key in tx.
func (s *Service) keep(ctx context.Context, tx *store.Store, c *access.Caller, key, hash string, status int, o outcome) error {
	body, err := json.Marshal(o)
	if err != nil {
		return err
	}
	return tx.PutIdempotencyRecord(ctx, &store.IdempotencyRecord{Caller: c.UserID, Key: key, RequestHash: hash,
		Status: status, Body: body, CreatedAt: s.now()})
}

// replay answers from the record kept for key. found is false when there is
// none (or it expired, in which case it is removed). With found, err is the
// kept answer's error, or ECONFLICT for a record of another request.
func (s *Service) replay(ctx context.Context, st *store.Store, c *access.Caller, key, hash string) (found bool, res *Result, err error) {
	rec, err := st.IdempotencyRecord(ctx, c.UserID, key)
	switch {
	case platform.ErrorCode(err) == platform.ENOTFOUND:
		return false, nil, nil
	case err != nil:
		return false, nil, err
	case rec.CreatedAt.Before(s.now().Add(-IdempotencyTTL)):
		_, err := st.DeleteIdempotencyRecord(ctx, c.UserID, key)
		return false, nil, err
	case rec.RequestHash != hash:
		return true, nil, platform.Errorf(platform.ECONFLICT,
			"this Idempotency-Key was used for a different request; use a new key for new content")
	}
	var o outcome
	if err := json.Unmarshal(rec.Body, &o); err != nil {
		return false, nil, fmt.Errorf("idempotency record %s: %w", key, err)
	}
	switch {
	case o.Invalid != nil:
		o.Invalid.Replayed = true
		return true, nil, o.Invalid
	case o.Result != nil:
		o.Result.Replayed = true
		return true, o.Result, nil
	}
	return false, nil, fmt.Errorf("idempotency record %s: empty", key)
}
