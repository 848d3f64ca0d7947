package platform

import (
	"errors"
	"fmt"
)

// Error codes. Every service returns one of these; each transport maps a code
// to its own status exactly once (httpapi.WriteError, the GraphQL presenter).
const (
	EINVALID      = "invalid"
	ENOTFOUND     = "not_found"
	EFORBIDDEN    = "forbidden"
	ECONFLICT     = "conflict"
	EUNAUTHORIZED = "unauthorized"
	ELIMIT        = "limit"
	ETOOLARGE     = "too_large"
	EUNSUPPORTED  = "unsupported" // a body of a media type the route does not take
	EUNAVAILABLE  = "unavailable" // a dependency (the database) is down or too busy: try again soon
	EINTERNAL     = "internal"
)

// Error is a coded error whose Message may be shown to the caller. Details
// carries one message per problem when a request fails for several reasons.
type Error struct {
	Code    string
	Message string
	Details []string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Unavailable returns an EUNAVAILABLE error with message msg that keeps
// cause for the log and for errors.Is.
func Unavailable(msg string, cause error) error {
	return fmt.Errorf("%w: %w", Errorf(EUNAVAILABLE, "%s", msg), cause)
}

// ErrorCode returns the code of err, EINTERNAL for errors that carry none and
// "" for nil.
func ErrorCode(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Code
	default:
		return EINTERNAL
	}
}

// ErrorMessage returns the message of a coded error, or a generic text for
// other errors so that internal details never reach a caller.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "Internal error."
}
