package idp

import (
	"testing"

	"github.com/google/uuid"
)

// A passkey without a name is named for its provider where the AAGUID is
// known, and for nothing otherwise (the caller falls back to "Passkey").
func TestAuthenticatorName(t *testing.T) {
	t.Parallel()
	for aaguid, want := range map[string]string{
		"fbfc3007-154e-4ecc-8c0b-6e020557d7bd": "iCloud Keychain",
		"ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4": "Google Password Manager",
		"08987058-cadc-4b81-b6e1-30de50dcbe96": "Windows Hello",
		"bada5566-a7aa-401f-bd96-45619a55120d": "1Password",
		"d548826e-79b4-db40-a3d8-11116f7e8349": "Bitwarden",
		"cb69481e-8ff7-4039-93ec-0a2729a154a8": "YubiKey 5",
		"00000000-0000-0000-0000-000000000000": "",
		"11111111-2222-3333-4444-555555555555": "",
	} {
		id := uuid.MustParse(aaguid)
		if got := authenticatorName(id[:]); got != want {
			t.Errorf("%s: %q, want %q", aaguid, got, want)
		}
	}
	if got := authenticatorName([]byte{1, 2, 3}); got != "" {
		t.Errorf("a malformed AAGUID named %q", got)
	}
	if got := authenticatorName(nil); got != "" {
		t.Errorf("no AAGUID named %q", got)
	}
}
