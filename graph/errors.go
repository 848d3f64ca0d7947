package graph

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/httpapi"
	"github.com/platform/platform/internal/platform"
)

// Error codes in extensions.code. The platform's coded errors map onto
// them here, in one place, as httpapi.Status maps them onto HTTP statuses.
const (
	CodeBadUserInput    = "BAD_USER_INPUT"
	CodeUnauthenticated = "UNAUTHENTICATED"
	CodeForbidden       = "FORBIDDEN"
	CodeNotFound        = "NOT_FOUND"
	CodeConflict        = "CONFLICT"
	CodeRateLimited     = "RATE_LIMITED"
	CodeTooLarge        = "PAYLOAD_TOO_LARGE"
	// CodeUnavailable: the database was down or too busy; retry shortly.
	CodeUnavailable = "SERVICE_UNAVAILABLE"
	CodeInternal    = "INTERNAL_SERVER_ERROR"
	// Codes of operations refused before execution for their shape or cost
	// (the token limit answers GRAPHQL_PARSE_FAILED).
	CodeDepthLimit      = "DEPTH_LIMIT_EXCEEDED"
	CodeAliasLimit      = "ALIAS_LIMIT_EXCEEDED"
	CodeComplexityLimit = "COMPLEXITY_LIMIT_EXCEEDED"
	// CodeObjectLimit aborts an operation that produced more than
	// MaxObjects objects while it ran (D-graphql-cost).
	CodeObjectLimit = "OBJECT_LIMIT_EXCEEDED"
	// CodeIntrospectionDisabled answers __schema and __type when the
	// playground is off (D-playground).
	CodeIntrospectionDisabled = "INTROSPECTION_DISABLED"
	// CodeStepUp refuses one of the most dangerous actions to a caller
	// without a recent sign-in with a second factor (D-step-up);
	// extensions acrValues and maxAge say what to sign in with.
	CodeStepUp = "INSUFFICIENT_USER_AUTHENTICATION"
)

// graphCode returns the extensions.code of a platform error code.
func graphCode(code string) string {
	switch code {
	case platform.EINVALID, platform.EUNSUPPORTED:
		return CodeBadUserInput
	case platform.EUNAUTHORIZED:
		return CodeUnauthenticated
	case platform.EFORBIDDEN:
		return CodeForbidden
	case platform.ENOTFOUND:
		return CodeNotFound
	case platform.ECONFLICT:
		return CodeConflict
	case platform.ELIMIT:
		return CodeRateLimited
	case platform.ETOOLARGE:
		return CodeTooLarge
	case platform.EUNAVAILABLE:
		return CodeUnavailable
	}
	return CodeInternal
}

// presentError masks an error for the client: coded errors keep their
// message (and details) under their code; anything else is logged with the
// request id and shown as "internal error". Every error carries the request id.
func presentError(ctx context.Context, err error) *gqlerror.Error {
	var gerr *gqlerror.Error
	if errors.As(err, &gerr) && gerr.Err == nil {
		// A parse or validation error of gqlparser, or one of ours: already safe.
		out := *gerr
		out.Extensions = withRequestID(ctx, gerr.Extensions)
		return &out
	}
	out := graphql.DefaultErrorPresenter(ctx, err)
	if strings.HasSuffix(err.Error(), "introspection disabled") {
		out.Message = "introspection is disabled on this endpoint (GRAPHQL_PLAYGROUND)"
		out.Extensions = withRequestID(ctx, map[string]any{"code": CodeIntrospectionDisabled})
		return out
	}
	code := platform.ErrorCode(err)
	ext := map[string]any{"code": graphCode(code)}
	if code == platform.EUNAVAILABLE {
		slog.WarnContext(ctx, "graphql: service unavailable", "err", err, "path", out.Path.String(), "request_id", httpapi.RequestID(ctx))
	}
	if code == platform.EINTERNAL {
		slog.ErrorContext(ctx, "graphql", "err", err, "path", out.Path.String(), "request_id", httpapi.RequestID(ctx))
		out.Message = "internal error"
	} else {
		out.Message = platform.ErrorMessage(err)
		var pe *platform.Error
		if errors.As(err, &pe) && len(pe.Details) > 0 {
			ext["details"] = pe.Details
		}
	}
	if su := access.AsStepUp(err); su != nil {
		ext["code"], ext["acrValues"], ext["maxAge"] = CodeStepUp, su.ACRValues, su.MaxAge
	}
	out.Extensions = withRequestID(ctx, ext)
	return out
}

func withRequestID(ctx context.Context, ext map[string]any) map[string]any {
	out := make(map[string]any, len(ext)+1)
	for k, v := range ext {
		out[k] = v
	}
	if id := httpapi.RequestID(ctx); id != "" {
		out["requestId"] = id
	}
	return out
}

// recoverPanic turns a resolver's panic into a masked internal error.
func recoverPanic(ctx context.Context, p any) error {
	slog.ErrorContext(ctx, "graphql panic", "panic", fmt.Sprint(p), "request_id", httpapi.RequestID(ctx))
	return platform.Errorf(platform.EINTERNAL, "panic: %v", p)
}
