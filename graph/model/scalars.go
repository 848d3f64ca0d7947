package model

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/99designs/gqlgen/graphql"
)

// MarshalRawJSON writes the JSON scalar: the stored JSON as it is, null when empty.
func MarshalRawJSON(v json.RawMessage) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		if len(v) == 0 {
			_, _ = io.WriteString(w, "null")
			return
		}
		_, _ = w.Write(v)
	})
}

// UnmarshalRawJSON reads the JSON scalar from a query literal or a variable.
func UnmarshalRawJSON(v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("JSON: %w", err)
	}
	return b, nil
}

// MarshalID writes the ID scalar, a string.
func MarshalID(s string) graphql.Marshaler { return graphql.MarshalString(s) }

// UnmarshalID reads the ID scalar: a string or an integer (GraphQL's
// input coercion for ID). null, for an optional ID, is the empty string,
// "none", where gqlgen's own ID reads it as the text "null".
func UnmarshalID(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	case json.Number:
		if _, err := v.Int64(); err != nil {
			return "", fmt.Errorf("an ID is a string or an integer, not %s", v)
		}
		return string(v), nil
	case int:
		return strconv.Itoa(v), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	default:
		return "", fmt.Errorf("an ID is a string or an integer, not %T", v)
	}
}
