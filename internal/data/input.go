package data

import (
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
var limits = cx.Limits{MaxRows: MaxUploadRows}

// DecodeJSON reads a JSON upload body (SPEC 4.5) of at most MaxUploadBytes.
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
// the same keys as a JSON body (R4.5-cx-same). Errors are *InputError.
func DecodeSheet(r io.Reader, filename, scheduleID string) (*cx.Request, error) {
	lr := &limitReader{r: r, n: MaxUploadBytes}
	req, err := sheet.Read(lr, filename, scheduleID, limits)
	if lr.over {
		return nil, tooLarge()
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
