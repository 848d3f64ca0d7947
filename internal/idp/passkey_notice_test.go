package idp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/descope/virtualwebauthn"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/platform/platform/internal/mail"
	"github.com/platform/platform/internal/mail/mailtest"
	"github.com/platform/platform/internal/store"
)

// A passkey signs in without the password, so one added from a stolen
// session would outlive that session and a new password. Every added
// passkey is mailed to its holder by name, over a real SMTP server, and an
// account holds at most 20: the 21st is refused at its options and at its
// answer, and nothing is stored or mailed for it.
//
// attack: passkey-planted-by-stolen-session
func TestAttackPasskeyPlantedNoticeAndLimit(t *testing.T) {
	t.Parallel()
	ti := passkeyIDP(t, nil)
	smtp := mailtest.Start(t)
	worker := &mail.Worker{Store: ti.st, Sealer: ti.p.sealer, Sender: smtp.Sender(), From: "no-reply@platform.test", Now: ti.p.now}
	deliver := func() {
		t.Helper()
		if _, err := worker.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	b := ti.signedIn()
	if resp, page := ti.enrol(b, newSoftKey(ti, userAlice), "Attacker's key"); resp.StatusCode != http.StatusOK {
		t.Fatalf("enrolment: %d\n%s", resp.StatusCode, page)
	}
	deliver()
	got := smtp.To(alice)
	if len(got) != 1 || !strings.Contains(got[0].Subject, "passkey was added") || !strings.Contains(got[0].Text, `“Attacker's key”`) ||
		!strings.Contains(got[0].Text, ti.issuer+PathAccount) {
		t.Fatalf("notice: %+v", smtp.Messages())
	}

	// up to the limit, then a late answer and the options are refused
	fill := func(i int) {
		t.Helper()
		id := []byte(fmt.Sprintf("cred-%02d", i))
		cred, _ := json.Marshal(webauthn.Credential{ID: id})
		if err := ti.st.CreatePasskey(context.Background(), &store.Passkey{ID: fmt.Sprintf("pk_fill_%02d", i), UserID: userAlice,
			CredentialID: id, Name: fmt.Sprintf("Key %d", i), Credential: cred, CreatedAt: ti.p.now()}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 2; i < passkeysMax; i++ {
		fill(i)
	}
	_, page := b.get(ti.issuer + PathAccount)
	csrf := extractField(page, "csrf")
	status, body := b.options(ti.issuer+PathAccountPasskeysOptions, url.Values{"csrf": {csrf}})
	if status != http.StatusOK {
		t.Fatalf("options at %d passkeys = %d %s", passkeysMax-1, status, body)
	}
	opts, err := virtualwebauthn.ParseAttestationOptions(body)
	if err != nil {
		t.Fatal(err)
	}
	fill(passkeysMax) // meanwhile the account reaches the limit
	k := newSoftKey(ti, userAlice)
	att := virtualwebauthn.CreateAttestationResponse(k.rp, k.auth, k.cred, *opts)
	if resp, page := b.post(ti.issuer+PathAccountPasskeys, url.Values{"csrf": {csrf}, "name": {"One too many"}, "credential": {att}}); resp.StatusCode != http.StatusConflict ||
		!strings.Contains(page, "20 passkeys") {
		t.Fatalf("answer past the limit = %d", resp.StatusCode)
	}
	_, page = b.get(ti.issuer + PathAccount)
	if status, body := b.options(ti.issuer+PathAccountPasskeysOptions, url.Values{"csrf": {extractField(page, "csrf")}}); status != http.StatusConflict ||
		!strings.Contains(body, "20 passkeys") {
		t.Fatalf("options past the limit = %d %s", status, body)
	}
	if n := len(ti.passkeys(userAlice)); n != passkeysMax {
		t.Fatalf("%d passkeys stored", n)
	}
	deliver()
	if n := len(smtp.To(alice)); n != 1 {
		t.Fatalf("%d notices, want 1", n)
	}
}
