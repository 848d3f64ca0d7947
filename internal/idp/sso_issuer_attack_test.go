package idp

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/platform/platform/internal/platform"
)

// An external identity provider whose issuer is plain http on a public
// host: the provider would send the client secret to its token endpoint
// and trust its id_tokens over a connection anyone on the path can read
// and rewrite. The management API refuses it as the console's API does
// (https, http only on a loopback host, D-urls), before anything is
// looked up, and nothing is stored by any path.
// attack: sso-issuer-plain-http
func TestAttackSSOIssuerPlainHTTP(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	m := ti.mgmtClient(t, true)
	for _, issuer := range []string{"http://sso.example.com", "http://sso.example.com.localhost.example/", "http://10.0.0.8"} {
		code, body := m.do(http.MethodPost, "/organizations/"+orgB+"/identity-providers", map[string]any{
			"name": "Plain SSO", "issuer": issuer, "clientId": extClientID, "clientSecret": extSecret})
		if detail := fmt.Sprint(body["error"]); code != http.StatusBadRequest || !strings.Contains(detail, "issuer must use https") {
			t.Errorf("issuer %s answered %d %v, want 400 naming https", issuer, code, body)
		}
		err := ti.st.CreateExternalIDP(context.Background(), &platform.ExternalIDP{ID: "idp-plain", OrgID: orgB, Name: "Plain SSO",
			Issuer: issuer, ClientID: extClientID, SecretSealed: []byte{1}, CreatedAt: time.Now()})
		if platform.ErrorCode(err) != platform.EINVALID {
			t.Errorf("the store took an external provider at %s: %v", issuer, err)
		}
	}
	if xs, err := ti.st.ExternalIDPs(context.Background(), orgB); err != nil || len(xs) != 0 {
		t.Fatalf("providers of org B = %d, %v; want none", len(xs), err)
	}
}
