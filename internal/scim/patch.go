package scim

import (
	"net/http"
	"slices"
	"strings"
)

// patchOp is one operation of a PATCH request (RFC 7644 3.5.2): op is
// "add", "replace" or "remove" in any case (Entra ID sends "Replace"), path
// is optional (a value object without path sets its attributes, as Okta
// and Entra ID send them).
type patchOp struct {
	op    string
	path  string
	value any
}

// readPatch reads a PatchOp message: at most MaxOperations operations.
func readPatch(r *http.Request) ([]patchOp, error) {
	var doc map[string]any
	if err := decode(r, &doc); err != nil {
		return nil, err
	}
	var raw []any
	for k, v := range doc {
		if strings.EqualFold(k, "Operations") {
			list, ok := v.([]any)
			if !ok {
				return nil, invalidValue("Operations must be a list")
			}
			raw = list
		}
	}
	if len(raw) == 0 {
		return nil, typed("invalidSyntax", invalidValue("Operations is required"))
	}
	if len(raw) > MaxOperations {
		return nil, typed("tooMany", invalidValue("a PATCH request holds at most %d operations", MaxOperations))
	}
	ops := make([]patchOp, 0, len(raw))
	for _, o := range raw {
		m, ok := o.(map[string]any)
		if !ok {
			return nil, invalidValue("an operation must be an object")
		}
		var op patchOp
		for k, v := range m {
			switch strings.ToLower(k) {
			case "op":
				s, _ := v.(string)
				op.op = strings.ToLower(s)
			case "path":
				s, _ := v.(string)
				op.path = strings.TrimSpace(s)
			case "value":
				op.value = v
			}
		}
		switch op.op {
		case "add", "replace":
			if op.value == nil {
				return nil, invalidValue("%s needs a value", op.op)
			}
		case "remove":
			if op.path == "" {
				return nil, typed("noTarget", invalidValue("remove needs a path"))
			}
		default:
			return nil, invalidValue("op must be add, replace or remove")
		}
		ops = append(ops, op)
	}
	return ops, nil
}

// apply applies the operation with set: to its path, or, without one, to
// each attribute of its value object but those named in skip (any case).
func (op patchOp) apply(set func(path string, v any) error, skip ...string) error {
	if op.path != "" {
		return set(op.path, op.value)
	}
	m, ok := op.value.(map[string]any)
	if !ok {
		return invalidValue("an operation without path needs an object value")
	}
	for k, v := range m {
		if slices.ContainsFunc(skip, func(s string) bool { return strings.EqualFold(k, s) }) {
			continue
		}
		if err := set(k, v); err != nil {
			return err
		}
	}
	return nil
}

// applyPatch applies the operations to a resource's state in order.
func applyPatch(ops []patchOp, st interface{ patch(patchOp) error }) error {
	for _, op := range ops {
		if err := st.patch(op); err != nil {
			return err
		}
	}
	return nil
}
