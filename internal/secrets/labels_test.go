package secrets

import (
	"bytes"
	"encoding/hex"
	"testing"
)

// TestLabelsOpenStoredValues opens values sealed before the labels had a
// home, under the literal labels the callers spelled then (key: 32 bytes
// of 7): every label function must make the same associated data, or the
// secrets already stored stop opening.
func TestLabelsOpenStoredValues(t *testing.T) {
	s, err := New(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		label  Label
		old    string // the literal label the value was sealed under
		sealed string
	}{
		{LabelIDPSecret("idp-1"), "idp-secret:idp-1", "6cd666fbace397a4b06b08d5f41dff2e3d7957af88e45ed72f4ce2406414fa0e588340ef8a19b0e7ac39ab2ce628ade3b5d02e4488b95f2858"},
		{LabelWebhookSecret("wh-1"), "webhooks.secret:wh-1", "ec37d14e1e0eaa0805d59f72250af6c0ba9fbed64f651832d6edf9313e6f16287fdda9effd63e859e8e70837c0a955f7ddd02ae64f6f28c68056268592"},
		{LabelEnvValue("env-1"), "environment_variables.value:env-1", "970dbeec6ff5c545d4e3245fd93aa95bd18b36f83189663cbfe0a73dc5ab09828e15e14fa3e56ebb83f08dd6bdc894b953ad05be81fb58bad13af495c5808b2a1b1a446a0a72b8303b41"},
		{LabelMail("mail-1"), "mail:mail-1", "8e5c1f0479620588fd5df91482992843f89bff1e605c71e20814205ff4e8c8e12dcc27c650a241c661ccfa7d036cae225644bb9b"},
		{LabelTOTP("user-1"), "totp:user-1", "c7580f67d1bcf2b39607886698aef5eff510de1611cb1249a8f294440fc062a2ed29e1adafe918e66909cefec8aacd40e987c737"},
		{LabelRefreshSuccessor("hash-1"), "refresh-successor:hash-1", "5e04912e2b3bdd4e98590421687ddbd2142a505c53014742cc83c11527e39a5e554a52f41723c5711478815a47a4adbab3c2a8a045227774d37051cfc0e1101a3a"},
		{LabelTenantRefresh("sess-1"), "tenant-refresh:sess-1", "9fadfefa4d0b01088f080edc4dffdac651fb2b58546ae320956f1a7891f5682094b431762349a0a6337a1cdefb1063d6a4f696e4c4a93189104f4b6ce59c"},
	} {
		sealed, err := hex.DecodeString(tc.sealed)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Open(sealed, tc.label)
		if err != nil || string(got) != "sealed under "+tc.old {
			t.Errorf("%s: a value sealed under %q does not open under %q: %q, %v", tc.old, tc.old, tc.label, got, err)
		}
	}
}

// TestLabelsDiffer: no two kinds of secret share a label for the same id,
// so a value cannot be moved from one column to another.
func TestLabelsDiffer(t *testing.T) {
	seen := map[Label]bool{}
	for _, l := range []Label{LabelIDPSecret("x"), LabelWebhookSecret("x"), LabelEnvValue("x"), LabelMail("x"), LabelTOTP("x"),
		LabelRefreshSuccessor("x"), LabelTenantRefresh("x")} {
		if seen[l] {
			t.Errorf("label %q made twice", l)
		}
		seen[l] = true
	}
}
