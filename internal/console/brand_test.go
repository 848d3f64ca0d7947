package console

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/platform/platform/internal/store"
)

// Once resolve-org knows the organization, the gateway gets its branding:
// the display name, the colour with its text colour and the logo's URL at
// the identity provider; an unbranded organization gets none. The
// gateway's pages may load images from the identity provider.
func TestResolveOrgBrand(t *testing.T) {
	t.Parallel()
	tc := mustConsole(t, 0)
	logo := strings.Repeat("c", 64)
	if err := tc.st.PutBranding(context.Background(), &store.Branding{CustomerID: "cust-globex", DisplayName: "Globex Engineering",
		PrimaryColor: "#0b5d1e", LogoSHA256: logo, UpdatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	got := tc.resolveOrg("dana@partner.example").Orgs
	want := []OrgRef{{ID: acmeOrg, Name: "Name of " + acmeOrg},
		{ID: globexOrg, Name: "Name of " + globexOrg, Brand: &OrgBrand{DisplayName: "Globex Engineering", PrimaryColor: "#0b5d1e",
			TextColor: "#ffffff", LogoURL: testIssuer + "/ui/brand/logo/" + logo + ".png"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	resp, err := http.Get(tc.srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "img-src 'self' "+testIssuer+";") {
		t.Errorf("gateway CSP: %q", csp)
	}
}

// A colour or logo that reached the store without the admin API's checks
// is not passed on to the gateway.
// attack: gateway-brand-injection
func TestAttackResolveOrgBrandInjection(t *testing.T) {
	t.Parallel()
	tc := mustConsole(t, 0)
	if err := tc.st.PutBranding(context.Background(), &store.Branding{CustomerID: "cust-acme",
		PrimaryColor: "red;background:url(https://evil.example/)", LogoSHA256: "../../evil", UpdatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if orgs := tc.resolveOrg("alice@acme.example").Orgs; len(orgs) != 1 || orgs[0].Brand != nil {
		t.Fatalf("brand passed on: %+v", orgs)
	}
}
