package cx

import (
	"bytes"
	"encoding/json"
)

// eachMember calls fn with each key and raw value of obj, a JSON object the
// json.Decoder has already checked, in order and stopping at the first
// error. The check makes the scan simple: strings are closed, escapes are
// well-formed and every value is followed by ',' or '}'. Only string values
// are measured; for any other value fn gets its first bytes, enough to name
// its kind, and must return an error.
func eachMember(obj []byte, fn func(key string, value []byte) error) error {
	i := skipSpace(obj, 1)
	for obj[i] != '}' {
		end := stringEnd(obj, i)
		key := unquoteKey(obj[i:end])
		i = skipSpace(obj, skipSpace(obj, end)+1) // past ':'
		vend := len(obj)
		if obj[i] == '"' {
			vend = stringEnd(obj, i)
		}
		if err := fn(key, obj[i:vend]); err != nil {
			return err
		}
		i = skipSpace(obj, vend)
		if obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
	return nil
}

// stringEnd returns the index just past the JSON string starting at b[i].
func stringEnd(b []byte, i int) int {
	for j := i + 1; ; j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// unquoteKey is unquote that returns the canonical field names without
// allocating.
func unquoteKey(q []byte) string {
	if i := FieldIndex(string(q[1 : len(q)-1])); i >= 0 {
		return Fields[i]
	}
	return unquote(q)
}

// unquote decodes a valid JSON string literal.
func unquote(q []byte) string {
	if bytes.IndexByte(q, '\\') < 0 {
		return string(q[1 : len(q)-1])
	}
	var s string
	json.Unmarshal(q, &s) // valid by construction
	return s
}
