package idp

import (
	_ "embed"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/platform/platform/internal/platform"
)

//go:embed common_passwords.txt
var commonPasswordList string

var commonPasswords = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, line := range strings.Split(commonPasswordList, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			m[line] = struct{}{}
		}
	}
	return m
}()

// CheckPassword applies an organization's password rules: a minimum length
// and, when enabled, a list of common and breached passwords (compared
// case-insensitively, also with digits and symbols stripped from the end).
func CheckPassword(p *platform.LoginPolicy, password, email string) error {
	var problems []string
	if n := utf8.RuneCountInString(password); n < p.PasswordMinLength {
		problems = append(problems, "password must be at least "+strconv.Itoa(p.PasswordMinLength)+" characters")
	} else if n > 256 {
		problems = append(problems, "password must be at most 256 characters")
	}
	if p.PasswordCheckCommon {
		lower := strings.ToLower(password)
		trimmed := strings.TrimRight(lower, "0123456789!@#$%^&*.?-_ ")
		_, common := commonPasswords[lower]
		_, commonStem := commonPasswords[trimmed]
		local, _, _ := strings.Cut(strings.ToLower(email), "@")
		if common || commonStem || (local != "" && strings.Contains(lower, local) && len(local) >= 4) {
			problems = append(problems, "password is too common or contains the e-mail address")
		}
	}
	if len(problems) > 0 {
		return &platform.Error{Code: platform.EINVALID, Message: "password does not meet the organization's rules", Details: problems}
	}
	return nil
}
