package data

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/platform/platform/internal/cx"
	"github.com/platform/platform/internal/cx/sheet"
	"github.com/platform/platform/internal/platform"
)

// CodeBodyTooLarge is the request-level code of an upload body over
// MaxUploadBytes; the other request-level codes are cx's.
const CodeBodyTooLarge = "BODY_TOO_LARGE"

// InputError is an upload that cannot be validated row by row: the body is
// malformed or too large, the schedule or the data is missing, a
// spreadsheet lacks its header. Code is a cx request-level code
// (cx.CodeInvalidRequest …) or CodeBodyTooLarge. It unwraps to EINVALID, or
// ETOOLARGE for ROWS_LIMIT and BODY_TOO_LARGE; REST answers DATA_EMPTY with
// 422 (D-cx).
type InputError struct {
	Code    string
	Message string
}

func (e *InputError) Error() string { return e.Code + ": " + e.Message }

// Unwrap gives the error its platform code.
func (e *InputError) Unwrap() error {
	code := platform.EINVALID
	if e.Code == cx.CodeRowsLimit || e.Code == cx.CodeSheetTooLarge || e.Code == CodeBodyTooLarge {
		code = platform.ETOOLARGE
	}
	return platform.Errorf(code, "%s", e.Message)
}

// inputError turns the decoders' errors into *InputError; other errors pass.
func inputError(err error) error {
	var re *cx.RequestError
	if errors.As(err, &re) {
		return &InputError{Code: re.Code, Message: re.Message}
	}
	return err
}

func tooLarge() *InputError {
	return &InputError{Code: CodeBodyTooLarge, Message: fmt.Sprintf("an upload body holds at most %d bytes (%d MiB)", MaxUploadBytes, MaxUploadBytes>>20)}
}

// limits are the decoders' limits of an upload.
var limits = cx.Limits{MaxRows: MaxUploadRows, MaxSheetBytes: MaxSheetTextBytes}

// DecodeJSON reads a JSON upload body (R4.5-cx-required, D-cx) of at most MaxUploadBytes.
// Errors are *InputError.
func DecodeJSON(r io.Reader) (*cx.Request, error) {
	lr := &limitReader{r: r, n: MaxUploadBytes}
	req, err := cx.DecodeRequest(lr, limits)
	if lr.over {
		return nil, tooLarge()
	}
	return req, inputError(err)
}

// DecodeSheet reads a .csv or .xlsx upload of at most MaxUploadBytes with
// the same keys as a JSON body (R4.5-cx-same). It stops when ctx ends
// (UPLOAD_TIMEOUT, or the client left), with EUNAVAILABLE. Other errors are
// *InputError.
func DecodeSheet(ctx context.Context, r io.Reader, filename, scheduleID string) (*cx.Request, error) {
	file, err := io.ReadAll(&limitReader{r: r, n: MaxUploadBytes})
	if errors.Is(err, errTooLarge) {
		return nil, tooLarge()
	}
	if err != nil {
		return nil, &InputError{Code: cx.CodeInvalidRequest, Message: "the spreadsheet cannot be read: " + err.Error()}
	}
	return decodeSheet(ctx, file, filename, scheduleID)
}

// decodeSheet reads a spreadsheet held in memory.
func decodeSheet(ctx context.Context, file []byte, filename, scheduleID string) (*cx.Request, error) {
	req, err := sheet.Read(ctx, bytes.NewReader(file), filename, scheduleID, limits)
	if ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return nil, platform.Unavailable("the upload ran out of time while its spreadsheet was read; try again, or split the spreadsheet", err)
	}
	return req, inputError(err)
}

// limitReader reads at most n bytes and remembers whether the source held more.
type limitReader struct {
	r    io.Reader
	n    int64
	over bool
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.over {
		return 0, errTooLarge
	}
	if int64(len(p)) > l.n+1 {
		p = p[:l.n+1]
	}
	n, err := l.r.Read(p)
	if int64(n) > l.n {
		l.over = true
		return 0, errTooLarge
	}
	l.n -= int64(n)
	return n, err
}

var errTooLarge = errors.New("upload body too large")
