package storetest

import (
	"testing"
	"time"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// testBranding covers D-branding: a customer without branding answers the
// default one, branding is replaced whole, a logo is kept once under its
// hash and removed when no customer shows it, and resolve-org's statement
// carries the branding.
func testBranding(t *testing.T, st *store.Store) {
	mustCustomer(t, st, "br", "Br", "org-br")
	mustUser(t, st, "br-u", "org-br", "u@br.example")
	if b, err := st.CustomerBranding(ctx, "br"); err != nil || *b != (store.Branding{CustomerID: "br"}) {
		t.Fatalf("default branding: %+v %v", b, err)
	}
	if _, err := st.CustomerBranding(ctx, "nobody"); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("missing customer: %v", err)
	}
	if b, err := st.OrgBranding(ctx, "org-br"); err != nil || *b != (store.Branding{}) {
		t.Fatalf("org branding unset: %+v %v", b, err)
	}
	logo := &store.Logo{SHA256: "ab12", PNG: []byte("\x89PNG\x00\x01"), Width: 3, Height: 2}
	for range 2 { // kept once
		if err := st.PutLogo(ctx, logo, ts); err != nil {
			t.Fatal(err)
		}
	}
	want := store.Branding{CustomerID: "br", DisplayName: "Brand", PrimaryColor: "#0b5d1e", LogoSHA256: "ab12",
		MailFromName: "Br Support", MailReplyTo: "help@br.example", UpdatedAt: ts}
	for _, b := range []store.Branding{{CustomerID: "br", DisplayName: "First", UpdatedAt: ts}, want} {
		if err := st.PutBranding(ctx, &b); err != nil {
			t.Fatal(err)
		}
	}
	if b, err := st.CustomerBranding(ctx, "br"); err != nil || !b.UpdatedAt.Equal(ts) || b.DisplayName != want.DisplayName ||
		b.PrimaryColor != want.PrimaryColor || b.LogoSHA256 != "ab12" || b.MailFromName != want.MailFromName || b.MailReplyTo != want.MailReplyTo {
		t.Fatalf("branding: %+v %v", b, err)
	}
	if b, err := st.OrgBranding(ctx, "org-br"); err != nil || b.DisplayName != "Brand" {
		t.Fatalf("org branding: %+v %v", b, err)
	}
	if l, err := st.Logo(ctx, "ab12"); err != nil || string(l.PNG) != string(logo.PNG) || l.Width != 3 || l.Height != 2 {
		t.Fatalf("logo: %+v %v", l, err)
	}
	ms, err := st.OrgMemberships(ctx, "u@br.example", "org-admin")
	if err != nil || len(ms) != 1 || ms[0].Brand != (platform.OrgBrand{DisplayName: "Brand", PrimaryColor: "#0b5d1e", LogoSHA256: "ab12"}) {
		t.Fatalf("resolve-org brand: %+v %v", ms, err)
	}
	if n, err := st.DeleteUnusedLogos(ctx); err != nil || n != 0 {
		t.Fatalf("a shown logo removed: %d %v", n, err)
	}
	want.LogoSHA256 = ""
	if err := st.PutBranding(ctx, &want); err != nil {
		t.Fatal(err)
	}
	if n, err := st.DeleteUnusedLogos(ctx); err != nil || n != 1 {
		t.Fatalf("unused logos removed: %d %v", n, err)
	}
	if _, err := st.Logo(ctx, "ab12"); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("removed logo: %v", err)
	}
}

// testUserGrants covers D-your-sessions: a user's live grants with their
// application and last use, and the revocation of one, refused for
// another user's grant.
func testUserGrants(t *testing.T, st *store.Store) {
	mustOrg(t, st, "org-ug")
	mustUser(t, st, "ug-a", "org-ug", "a@ug.example")
	mustUser(t, st, "ug-b", "org-ug", "b@ug.example")
	if err := st.CreateApplication(ctx, &platform.Application{AppID: "ug-app", ClientID: "ug-c", Name: "Reports",
		Kind: platform.AppPublic, RedirectURIs: []string{"https://r.example/cb"}, BackchannelLogoutURI: "https://r.example/bcl",
		CreatedAt: ts}); err != nil {
		t.Fatal(err)
	}
	token := func(id, family, user string, at time.Time) {
		t.Helper()
		if err := st.CreateAccessToken(ctx, &store.AccessToken{ID: id, FamilyID: family, ClientID: "ug-c", UserID: user,
			SessionSID: "sid-" + user, CreatedAt: at, ExpiresAt: at.Add(time.Hour), GrantExpiresAt: ts.Add(24 * time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	token("at1", "g-old", "ug-a", ts)
	token("at2", "g-new", "ug-a", ts.Add(time.Minute))
	token("at3", "g-old", "ug-a", ts.Add(2*time.Minute)) // the old grant used last
	token("at4", "g-b", "ug-b", ts)
	gs, err := st.UserGrants(ctx, "ug-a", ts.Add(3*time.Minute), 10)
	if err != nil || len(gs) != 2 || gs[0].ID != "g-old" || gs[0].AppName != "Reports" || !gs[0].LastUsedAt.Equal(ts.Add(2*time.Minute)) ||
		!gs[0].CreatedAt.Equal(ts) || gs[1].ID != "g-new" {
		t.Fatalf("grants: %+v %v", gs, err)
	}
	now := ts.Add(3 * time.Minute)
	if err := st.EndUserGrant(ctx, "ug-a", "g-b", now); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("another user's grant: %v", err)
	}
	if g, err := st.TokenGrant(ctx, "g-b"); err != nil || !g.RevokedAt.IsZero() {
		t.Fatalf("another user's grant revoked: %+v %v", g, err)
	}
	if err := st.EndUserGrant(ctx, "ug-a", "g-old", now); err != nil {
		t.Fatal(err)
	}
	if g, err := st.TokenGrant(ctx, "g-old"); err != nil || g.RevokedAt.IsZero() {
		t.Fatalf("revoked grant: %+v %v", g, err)
	}
	if err := st.EndUserGrant(ctx, "ug-a", "g-old", now); platform.ErrorCode(err) != platform.ENOTFOUND {
		t.Fatalf("a revoked grant again: %v", err)
	}
	if gs, err := st.UserGrants(ctx, "ug-a", now, 10); err != nil || len(gs) != 1 || gs[0].ID != "g-new" {
		t.Fatalf("grants after revoking: %+v %v", gs, err)
	}
	got, err := st.ClaimBackchannelLogouts(ctx, now, time.Minute, 10)
	if err != nil || len(got) != 1 || got[0].ClientID != "ug-c" || got[0].UserID != "ug-a" || got[0].SessionSID != "sid-ug-a" {
		t.Fatalf("logouts: %+v %v", got, err)
	}
}
