package storetest

import (
	"testing"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// testLanguages: a user's saved language (D-languages) is kept and cleared,
// ENOTFOUND for no user; a login transaction keeps its ui_locales.
func testLanguages(t *testing.T, st *store.Store) {
	mustOrg(t, st, "o1")
	mustUser(t, st, "u1", "o1", "lang@example.com")
	if u, err := st.User(ctx, "u1"); err != nil || u.Locale != "" {
		t.Fatalf("a new user's locale = %+v, %v", u, err)
	}
	for _, want := range []string{"ja", ""} {
		if err := st.SetUserLocale(ctx, "u1", want, ts); err != nil {
			t.Fatal(err)
		}
		if u, err := st.User(ctx, "u1"); err != nil || u.Locale != want {
			t.Fatalf("locale = %q, %v; want %q", u.Locale, err, want)
		}
	}
	wantCode(t, st.SetUserLocale(ctx, "nobody", "de", ts), platform.ENOTFOUND)
	a := newAuthRequest("ar-lang")
	a.UILocales = "fr"
	if err := st.CreateAuthRequest(ctx, a); err != nil {
		t.Fatal(err)
	}
	if got, err := st.AuthRequest(ctx, "ar-lang", ts); err != nil || got.UILocales != "fr" {
		t.Fatalf("auth request ui_locales = %+v, %v", got, err)
	}
}
