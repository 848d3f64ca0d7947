package platform

// ValidID reports whether s is an identifier the platform accepts from
// outside (request ids, organization and provider ids in scopes): 1 to 64
// letters, digits, '-' or '_'.
func ValidID(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
