package cx

import (
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"
)

// Length limits in characters (runes).
const (
	MaxIDLength           = 64
	MaxPredecessorsLength = 2000
	MaxFieldLength        = 255
	// MaxValueLength is the longest value any field allows: a longer value
	// can never be valid, whichever key it is given.
	MaxValueLength = MaxPredecessorsLength
)

// Values of ParentChildDependency; empty means DependencyNone.
const (
	DependencyNone     = "None"
	DependencyTopDown  = "TopDown"
	DependencyBottomUp = "BottomUp"
)

// checkFields applies the rules that look at one row at a time.
func (v *validator) checkFields() {
	for i := range v.req.Rows {
		r := &v.req.Rows[i]
		v.checkID(i, r)
		if strings.TrimSpace(r.Name) == "" {
			v.errorf(i, r.ID, FieldName, CodeNameRequired, r.Name, "Name is required")
		}
		for f, name := range Fields {
			s, max := *r.ptr(f), maxLength(name)
			if len(s) > max && utf8.RuneCountInString(s) > max { // len is a quick upper bound of the runes
				v.errorf(i, r.ID, name, CodeTooLong, s, "%s is %d characters long; the most allowed is %d",
					name, utf8.RuneCountInString(s), max)
			}
		}
		createdOK := v.checkDate(i, r, FieldCreatedAt, r.CreatedAt)
		updatedOK := v.checkDate(i, r, FieldUpdatedAt, r.UpdatedAt)
		if createdOK && updatedOK && r.CreatedAt != "" && r.UpdatedAt != "" && r.UpdatedAt < r.CreatedAt {
			v.errorf(i, r.ID, FieldUpdatedAt, CodeDateOrder, r.UpdatedAt,
				"updatedAt %s is before createdAt %s", r.UpdatedAt, r.CreatedAt)
		}
		if r.PMEmail != "" && !validEmail(r.PMEmail) {
			v.errorf(i, r.ID, FieldPMEmail, CodeInvalidEmail, r.PMEmail,
				"PM Email Address %q is not an e-mail address; write it plainly, like name@example.com", r.PMEmail)
		}
		switch r.ParentChildDependency {
		case "", DependencyNone, DependencyTopDown, DependencyBottomUp:
		default:
			v.errorf(i, r.ID, FieldParentChildDependency, CodeInvalidEnum, r.ParentChildDependency,
				"ParentChildDependency %q must be None, TopDown or BottomUp (or empty for None)", r.ParentChildDependency)
		}
		if strings.TrimSpace(r.ParentMilestone) != "" && strings.TrimSpace(r.Milestone) == "" {
			v.errorf(i, r.ID, FieldMilestone, CodeMilestonePairIncomplete, "",
				"Parent milestone is set (%s) but Milestone is empty; fill in both or neither", r.ParentMilestone)
		}
	}
}

// maxLength is the most runes a field may hold.
func maxLength(field string) int {
	switch field {
	case FieldID:
		return MaxIDLength
	case FieldPredecessors:
		return MaxPredecessorsLength
	}
	return MaxFieldLength
}

func (v *validator) checkID(i int, r *Row) {
	switch {
	case strings.TrimSpace(r.ID) == "":
		v.errorf(i, "", FieldID, CodeIDRequired, r.ID, "ID is required")
	case strings.ContainsAny(r.ID, ",;"):
		v.errorf(i, r.ID, FieldID, CodeIDInvalid, r.ID, "the ID must not contain a comma or a semicolon, which separate Predecessors")
	case strings.TrimSpace(r.ID) != r.ID:
		v.errorf(i, r.ID, FieldID, CodeIDInvalid, r.ID, "the ID must not begin or end with spaces")
	}
}

// checkDate reports an invalid date and returns whether s is empty or valid.
func (v *validator) checkDate(i int, r *Row, field, s string) bool {
	if s == "" || validDate(s) {
		return true
	}
	v.errorf(i, r.ID, field, CodeInvalidDate, s, "%s %q is not a date written YYYY-MM-DD, like 2024-03-31", field, s)
	return false
}

// validDate reports whether s is exactly YYYY-MM-DD and a real calendar date.
func validDate(s string) bool {
	if len(s) != len(time.DateOnly) || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if i != 4 && i != 7 && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

// validEmail accepts a bare address only: no display name, no angle brackets.
func validEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Name == "" && a.Address == s
}
