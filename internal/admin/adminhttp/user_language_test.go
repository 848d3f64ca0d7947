package adminhttp

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/mail"
)

// userLanguage reads a user's saved language from the store.
func (e *env) userLanguage(id string) string {
	e.t.Helper()
	u, err := e.st.User(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return u.Locale
}

// A customer's admin sets a user's language through PATCH /users/{id}: it
// is answered and listed, written as a user.update in the audit log, and
// the user's next e-mail is in it; "" goes back to the browser's. An
// unsupported language (or one spelt otherwise) is a 400 at the field,
// and a role that may not edit users is refused; neither changes it.
//
// spec: D-languages
func TestUserLanguage(t *testing.T) {
	t.Parallel()
	e, sl, cust, owner := mailEnv(t)
	admin, viewer := e.mustUser(authz.Admin, cust), e.mustUser(authz.Viewer, cust)
	resp := e.do(owner, http.MethodPost, "/customers/"+cust+"/users", map[string]any{"email": "lang@example.com", "name": "Lang"})
	if resp.Status != http.StatusCreated {
		t.Fatalf("invite: %d %s", resp.Status, resp.Body)
	}
	id := resp.json(t)["id"].(string)
	if got := resp.json(t)["language"]; got != "" {
		t.Fatalf("a new user's language: %v", got)
	}

	resp = e.doWithID("lang-de", admin, http.MethodPatch, "/users/"+id, map[string]any{"language": "de"})
	if resp.Status != http.StatusOK || resp.json(t)["language"] != "de" || e.userLanguage(id) != "de" {
		t.Fatalf("set de: %d %s", resp.Status, resp.Body)
	}
	if _, v := e.status(admin, "/users/"+id); v["language"] != "de" || v["name"] != "Lang" {
		t.Fatalf("read back: %v", v)
	}
	log := e.do(admin, http.MethodGet, "/audit-log?limit=50", nil)
	if log.Status != http.StatusOK || !strings.Contains(string(log.Body), `"operation":"user.update"`) ||
		!strings.Contains(string(log.Body), "lang-de") {
		t.Fatalf("audit log: %d %s", log.Status, log.Body)
	}
	if r := e.do(admin, http.MethodPost, "/users/"+id+"/resend-invitation", nil); r.Status != http.StatusOK {
		t.Fatalf("resend: %d %s", r.Status, r.Body)
	}
	msgs := outbox(t, e, sl, "lang@example.com", mail.KindInvitation)
	if first, last := msgs[0], msgs[len(msgs)-1]; !strings.Contains(last.HTML, `<html lang="de">`) ||
		!strings.Contains(first.HTML, `<html lang="en">`) || last.Subject == first.Subject {
		t.Fatalf("the invitation before (%q) and after (%q) the language was set", first.Subject, last.Subject)
	}

	for _, bad := range []string{"xx", "DE", "de-DE", "german", strings.Repeat("d", 300)} {
		r := e.do(admin, http.MethodPatch, "/users/"+id, map[string]any{"language": bad})
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "language must be one of en, de, fr, es, ja") {
			t.Errorf("language %q: %d %s", bad, r.Status, r.Body)
		}
	}
	if r := e.do(viewer, http.MethodPatch, "/users/"+id, map[string]any{"language": "fr"}); r.Status != http.StatusForbidden {
		t.Errorf("a viewer set the language: %d %s", r.Status, r.Body)
	}
	if got := e.userLanguage(id); got != "de" {
		t.Fatalf("after refused changes the language is %q", got)
	}

	resp = e.do(admin, http.MethodPatch, "/users/"+id, map[string]any{"language": ""})
	if resp.Status != http.StatusOK || resp.json(t)["language"] != "" || e.userLanguage(id) != "" {
		t.Fatalf("back to the browser's: %d %s", resp.Status, resp.Body)
	}
	// a patch without the field leaves it as it is
	e.do(admin, http.MethodPatch, "/users/"+id, map[string]any{"language": "ja"})
	if r := e.do(admin, http.MethodPatch, "/users/"+id, map[string]any{"name": "Lang Two"}); r.Status != http.StatusOK || e.userLanguage(id) != "ja" {
		t.Fatalf("rename: %d %s, language %q", r.Status, r.Body, e.userLanguage(id))
	}
}

// A customer's admin and owner set the language of another customer's
// user: answered as for a user that does not exist, and it stays.
//
// attack: user-language-other-customer
func TestAttackUserLanguageOtherCustomer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	mine, theirs := e.mustCustomer(), e.mustCustomer()
	victim := e.mustUser(authz.Member, theirs)
	for _, role := range []authz.Role{authz.Admin, authz.Owner} {
		r := e.do(e.mustUser(role, mine), http.MethodPatch, "/users/"+victim, map[string]any{"language": "ja"})
		if r.Status != http.StatusNotFound {
			t.Errorf("%s of another customer: %d %s", role, r.Status, r.Body)
		}
	}
	if got := e.userLanguage(victim); got != "" {
		t.Fatalf("the other customer's user has language %q", got)
	}
}
