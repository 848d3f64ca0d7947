package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/platform/platform/internal/i18n"
)

// The gateway's and the tenant web app's server-rendered pages answer in the
// language the browser asks for (the gateway also in its ui_locales), with
// <html lang>, Content-Language and the page scripts' texts in that language.
//
// spec: D-languages
func TestPagesLanguages(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	get := func(url, accept string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		if accept != "" {
			req.Header.Set("Accept-Language", accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	for _, c := range []struct{ url, accept, want, text string }{
		{m.Config.ConsoleURL + "/", "de-DE,de;q=0.9", "de", "Work e-mail address"},
		{m.Config.ConsoleURL + "/?ui_locales=ja", "fr", "ja", "Work e-mail address"},
		{m.Config.ConsoleURL + "/callback", "es", "es", "This account has no access to the console."},
		{m.Config.InstanceURL + "/", "fr-CA", "fr", "Upload a commissioning schedule"},
		{m.Config.InstanceURL + "/", "ja", "ja", "{n} records · page {page} of {pages}"},
		{m.Config.InstanceURL + "/auth/callback", "es", "es", "Signing you in…"},
	} {
		resp, page := get(c.url, c.accept)
		want := i18n.Catalogs[c.want][c.text]
		if resp.Header.Get("Content-Language") != c.want || !strings.Contains(page, `<html lang="`+c.want+`">`) ||
			!strings.Contains(page, want) || strings.Contains(page, c.text) {
			t.Errorf("%s (%s): %s, want %q:\n%.1500s", c.url, c.accept, resp.Header.Get("Content-Language"), want, page)
		}
	}
}

// A directory sets a user's saved language with SCIM's preferredLanguage (a
// region of a supported language saves the language, anything else none) on
// create, replace and PATCH, and reads it back.
//
// spec: D-languages
func TestSCIMPreferredLanguage(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	admin := consoleToken(t, m, "admin@platform.example")
	_, token := scimToken(t, m, admin, DemoAcmeCustomerID)
	code, u := scimCall(t, m, token, http.MethodPost, "/Users", map[string]any{
		"schemas":  []string{"urn:ietf:params:scim:schemas:core:2.0:User"},
		"userName": "lena@acme.example", "displayName": "Lena", "preferredLanguage": "de-AT"})
	if code != http.StatusCreated || u["preferredLanguage"] != "de" {
		t.Fatalf("create = %d %v", code, u)
	}
	id, _ := u["id"].(string)
	stored := func() string {
		t.Helper()
		usr, err := m.Store.User(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return usr.Locale
	}
	if stored() != "de" {
		t.Fatalf("saved %q", stored())
	}
	code, u = scimCall(t, m, token, http.MethodPatch, usersAt+id, map[string]any{
		"schemas":    []string{"urn:ietf:params:scim:api:messages:2.0:PatchOp"},
		"Operations": []any{map[string]any{"op": "replace", "path": "preferredLanguage", "value": "ja-JP"}}})
	if code != http.StatusOK || u["preferredLanguage"] != "ja" || stored() != "ja" {
		t.Fatalf("patch = %d %v, saved %q", code, u, stored())
	}
	code, u = scimCall(t, m, token, http.MethodPut, usersAt+id, map[string]any{
		"userName": "lena@acme.example", "displayName": "Lena", "preferredLanguage": "<script>"})
	if code != http.StatusOK || u["preferredLanguage"] != nil || stored() != "" {
		t.Fatalf("replace = %d %v, saved %q", code, u, stored())
	}
}
