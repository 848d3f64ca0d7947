package cx

import "fmt"

// RequestError is a request that cannot be validated row by row at all: the
// body is malformed, the schedule or the data is missing, or there are too
// many rows. Code is one of the request-level codes (CodeInvalidRequest …).
type RequestError struct {
	Code    string
	Message string
}

func (e *RequestError) Error() string { return e.Code + ": " + e.Message }

func requestErrorf(code, format string, args ...any) *RequestError {
	return &RequestError{Code: code, Message: fmt.Sprintf(format, args...)}
}
