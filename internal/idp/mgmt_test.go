package idp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/platform/platform/internal/platform"
)

const mgmtClientID, mgmtSecret = "console-service", "console-service-secret-0123456789"

// mgmt is a client of the management API authenticated with client_credentials.
type mgmt struct {
	t      *testing.T
	ti     *testIDP
	client *http.Client
}

func (ti *testIDP) mgmtClient(t *testing.T, management bool) *mgmt {
	t.Helper()
	id := mgmtClientID
	if !management {
		id = "other-service"
	}
	if err := ti.st.CreateApplication(context.Background(), &platform.Application{AppID: "svc-" + id, ClientID: id,
		Name: "Service " + id, Kind: platform.AppService, SecretHash: hashSecret(mgmtSecret), Management: management,
		CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	cc := clientcredentials.Config{ClientID: id, ClientSecret: mgmtSecret, TokenURL: ti.issuer + PathToken}
	return &mgmt{t: t, ti: ti, client: cc.Client(context.Background())}
}

// rawBody is a request body sent as it is, with its own Content-Type ("": none).
type rawBody struct{ contentType, body string }

func (m *mgmt) do(method, path string, body any) (int, map[string]any) {
	m.t.Helper()
	var rd io.Reader
	contentType := "application/json"
	switch b := body.(type) {
	case nil:
	case rawBody:
		rd, contentType = strings.NewReader(b.body), b.contentType
	default:
		j, _ := json.Marshal(body)
		rd = bytes.NewReader(j)
	}
	req, _ := http.NewRequest(method, m.ti.issuer+PathManagement+path, rd)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := m.client.Do(req)
	if err != nil {
		m.t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]any{}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// The management API refuses callers without a service token, with a user's
// token, or with a service that may not manage.
// attack: management-api-without-service-token
func TestManagementAuthentication(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	for name, header := range map[string]string{"NoToken": "", "Garbage": "Bearer abc.def.ghi", "Basic": "Basic eDp5"} {
		t.Run(name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, ti.issuer+PathManagement+"/organizations", nil)
			if header != "" {
				req.Header.Set("Authorization", header)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var body map[string]any
			_ = json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized || body["code"] != float64(401) {
				t.Fatalf("got %d %v, want 401 with the error object", resp.StatusCode, body)
			}
		})
	}
	t.Run("UserToken", func(t *testing.T) {
		tok, _ := ti.loginTokens(ti.rp(), alice)
		req, _ := http.NewRequest(http.MethodGet, ti.issuer+PathManagement+"/organizations", nil)
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		resp, _ := http.DefaultClient.Do(req)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("a user's access token answered %d", resp.StatusCode)
		}
	})
	t.Run("WrongSecret", func(t *testing.T) {
		ti.mgmtClient(t, true)
		cc := clientcredentials.Config{ClientID: mgmtClientID, ClientSecret: "wrong", TokenURL: ti.issuer + PathToken}
		if _, err := cc.Token(context.Background()); err == nil {
			t.Fatal("client_credentials with a wrong secret issued a token")
		}
	})
	t.Run("NotAllowed", func(t *testing.T) {
		m := ti.mgmtClient(t, false)
		if code, _ := m.do(http.MethodGet, "/organizations", nil); code != http.StatusForbidden {
			t.Fatalf("a service without the management right answered %d", code)
		}
	})
}

// Applications: create, read, update, rotate, delete; a created client
// completes a PKCE login at once.
// spec: R2.5-instance-app
func TestManagementApplications(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	m := ti.mgmtClient(t, true)
	redirects := []string{"https://tenant.example/auth/callback", "https://tenant.example/3/auth/callback"}
	code, app := m.do(http.MethodPost, "/applications", map[string]any{"name": "Instance A", "redirectUris": redirects})
	if code != http.StatusCreated || app["appId"] == "" || !strings.HasPrefix(app["clientId"].(string), "app-") {
		t.Fatalf("create = %d %v", code, app)
	}
	appID, clientID := app["appId"].(string), app["clientId"].(string)

	// the new client logs in at once (its redirect is https, so use a loopback one for the test client)
	code, _ = m.do(http.MethodPut, "/applications/"+appID, map[string]any{"name": "Instance A",
		"redirectUris": append(redirects, appRedirect)})
	if code != http.StatusOK {
		t.Fatalf("update = %d", code)
	}
	r := ti.rp()
	r.cfg.ClientID = clientID
	r.verifier = nil
	f := newFlow()
	codeValue := ti.login(ti.browser(), r, f, alice, goodPass)
	if _, err := r.exchange(f, codeValue); err != nil {
		t.Fatalf("new client cannot complete a login: %v", err)
	}

	code, got := m.do(http.MethodGet, "/applications/"+appID, nil)
	if code != http.StatusOK || got["clientId"] != clientID || len(got["redirectUris"].([]any)) != 3 {
		t.Fatalf("read = %d %v", code, got)
	}
	code, rotated := m.do(http.MethodPost, "/applications/"+appID+"/rotate", nil)
	if code != http.StatusOK || rotated["clientId"] == clientID || rotated["appId"] != appID {
		t.Fatalf("rotate = %d %v", code, rotated)
	}
	if resp := ti.authorize(t, withClient(baseAuthorize(), clientID)); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("old client id still accepted after rotation: %d", resp.StatusCode)
	}
	if code, _ := m.do(http.MethodDelete, "/applications/"+appID, nil); code != http.StatusNoContent {
		t.Fatalf("delete = %d", code)
	}
	if code, _ := m.do(http.MethodGet, "/applications/"+appID, nil); code != http.StatusNotFound {
		t.Fatalf("read after delete = %d", code)
	}
}

func withClient(q map[string][]string, id string) map[string][]string {
	q["client_id"] = []string{id}
	return q
}

// Bad input answers the error object and changes nothing.
func TestManagementBadInput(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	m := ti.mgmtClient(t, true)
	for name, tc := range map[string]struct {
		method, path string
		body         any
		want         int
	}{
		"AppNoRedirect":      {http.MethodPost, "/applications", map[string]any{"name": "x"}, 400},
		"AppBadRedirect":     {http.MethodPost, "/applications", map[string]any{"name": "x", "redirectUris": []string{"javascript:alert(1)"}}, 400},
		"AppUnknownField":    {http.MethodPost, "/applications", map[string]any{"name": "x", "redirectUris": []string{"https://a.example/cb"}, "secret": "x"}, 400},
		"AppDuplicateClient": {http.MethodPost, "/applications", map[string]any{"name": "x", "clientId": appClientID, "redirectUris": []string{"https://a.example/cb"}}, 409},
		"AppMissing":         {http.MethodGet, "/applications/nope", nil, 404},
		"PolicySSOOnlyNoIDP": {http.MethodPut, "/organizations/" + orgA + "/login-policy", map[string]any{"passwordAllowed": false, "ssoAllowed": true, "passwordMinLength": 12, "lockoutMaxAttempts": 5, "lockoutSeconds": 900}, 400},
		"PolicyNothing":      {http.MethodPut, "/organizations/" + orgA + "/login-policy", map[string]any{"passwordMinLength": 12, "lockoutMaxAttempts": 5, "lockoutSeconds": 900}, 400},
		"PolicyUnknownOrg":   {http.MethodPut, "/organizations/nope/login-policy", map[string]any{"passwordAllowed": true, "passwordMinLength": 12, "lockoutMaxAttempts": 5, "lockoutSeconds": 900}, 404},
		"IDPUnreachable":     {http.MethodPost, "/organizations/" + orgA + "/identity-providers", map[string]any{"name": "Down", "issuer": "http://127.0.0.1:1", "clientId": "c", "clientSecret": "s"}, 400},
		"IDPNoSecret":        {http.MethodPost, "/organizations/" + orgA + "/identity-providers", map[string]any{"name": "X", "issuer": ti.issuer, "clientId": "c"}, 400},
		"UserBadEmail":       {http.MethodPost, "/users", map[string]any{"orgId": orgA, "email": "not-an-email", "name": "X"}, 400},
		"UserNotJSON":        {http.MethodPost, "/users", rawBody{"text/plain", `{"orgId":"` + orgA + `","email":"new@a.example","name":"X"}`}, 415},
		"UserNoContentType":  {http.MethodPost, "/users", rawBody{"", `{"orgId":"` + orgA + `","email":"new@a.example","name":"X"}`}, 415},
		"UserUnknownField":   {http.MethodPost, "/users", map[string]any{"orgId": orgA, "email": "new@a.example", "name": "X", "admin": true}, 400},
		"UserTrailing":       {http.MethodPost, "/users", rawBody{"application/json", `{"orgId":"` + orgA + `","email":"new@a.example","name":"X"} {}`}, 400},
		"UserCommonPassword": {http.MethodPost, "/users", map[string]any{"orgId": orgA, "email": "new@a.example", "name": "X", "password": "Password123!"}, 400},
		"UserShortPassword":  {http.MethodPost, "/users", map[string]any{"orgId": orgA, "email": "new@a.example", "name": "X", "password": "x7#Lq"}, 400},
		"UserDuplicate":      {http.MethodPost, "/users", map[string]any{"orgId": orgA, "email": alice, "name": "X"}, 409},
		"UserUnknownOrg":     {http.MethodPost, "/users", map[string]any{"orgId": "nope", "email": "n@a.example", "name": "X"}, 404},
		"FindUsersBadEmail":  {http.MethodGet, "/users?email=nope", nil, 400},
	} {
		t.Run(name, func(t *testing.T) {
			code, body := m.do(tc.method, tc.path, tc.body)
			if code != tc.want || body["code"] != float64(tc.want) {
				t.Fatalf("got %d %v, want %d with the error object", code, body, tc.want)
			}
		})
	}
	// nothing was written
	if users, _ := ti.st.UsersByEmail(context.Background(), "new@a.example", ""); len(users) != 0 {
		t.Fatal("a refused user was stored")
	}
	if p, _ := ti.st.LoginPolicy(context.Background(), orgA); !p.PasswordAllowed || p.SSOAllowed {
		t.Fatalf("a refused policy was stored: %+v", p)
	}
}

// Users and organizations: create a user with a password, find by e-mail,
// list organizations with their policies; the new user can sign in.
func TestManagementUsersAndOrganizations(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	m := ti.mgmtClient(t, true)
	code, u := m.do(http.MethodPost, "/users", map[string]any{"orgId": orgB, "email": "New.User@B.example", "name": "New User",
		"password": "a sufficiently long passphrase", "emailVerified": true})
	if code != http.StatusCreated || u["email"] != "new.user@b.example" || u["orgId"] != orgB {
		t.Fatalf("create user = %d %v", code, u)
	}
	code, found := m.do(http.MethodGet, "/users?email=NEW.USER@b.example", nil)
	if users := found["users"].([]any); code != http.StatusOK || len(users) != 1 || users[0].(map[string]any)["id"] != u["id"] {
		t.Fatalf("find = %d %v", code, found)
	}
	code, orgs := m.do(http.MethodGet, "/organizations", nil)
	list := orgs["organizations"].([]any)
	if code != http.StatusOK || len(list) != 2 || list[0].(map[string]any)["loginPolicy"].(map[string]any)["passwordAllowed"] != true {
		t.Fatalf("organizations = %d %v", code, orgs)
	}
	r := ti.rp()
	f := newFlow()
	c := ti.loginAs(ti.browser(), r, f, "new.user@b.example", "a sufficiently long passphrase")
	if _, err := r.exchange(f, c); err != nil {
		t.Fatal(err)
	}
	_ = oauth2.NoContext
}

// loginAs is login with an explicit password.
func (ti *testIDP) loginAs(b *browser, r *rp, f flow, email, password string) string {
	return ti.login(b, r, f, email, password)
}

// The management API sets a policy under the one password rule every path
// shares (platform.LoginPolicy.Validate, D-org-policy): a minimum below the
// platform's 12 or the common list turned off is refused and nothing
// stored; left out, the list is on, and a common password is then refused.
func TestManagementPolicyPasswordRule(t *testing.T) {
	t.Parallel()
	ti := mustIDP(t)
	m := ti.mgmtClient(t, true)
	base := func(extra map[string]any) map[string]any {
		b := map[string]any{"passwordAllowed": true, "passwordMinLength": 14, "lockoutMaxAttempts": 5, "lockoutSeconds": 900}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	for name, tc := range map[string]struct {
		body   map[string]any
		detail string
	}{
		"OldFloor":      {base(map[string]any{"passwordMinLength": 8}), "platform's minimum, 12"},
		"BelowPlatform": {base(map[string]any{"passwordMinLength": 11}), "platform's minimum, 12"},
		"AboveMaximum":  {base(map[string]any{"passwordMinLength": 129}), "platform's minimum, 12"},
		"CommonListOff": {base(map[string]any{"passwordCheckCommon": false}), "passwordCheckCommon must be true"},
	} {
		t.Run(name, func(t *testing.T) {
			code, body := m.do(http.MethodPut, "/organizations/"+orgA+"/login-policy", tc.body)
			if code != http.StatusBadRequest || !strings.Contains(fmt.Sprint(body["error"]), tc.detail) {
				t.Fatalf("got %d %v, want 400 saying %q", code, body, tc.detail)
			}
		})
	}
	if p, _ := ti.st.LoginPolicy(context.Background(), orgA); p.PasswordMinLength != 12 || !p.PasswordCheckCommon {
		t.Fatalf("a refused policy was stored: %+v", p)
	}
	code, body := m.do(http.MethodPut, "/organizations/"+orgA+"/login-policy", base(nil))
	if code != http.StatusOK || body["passwordCheckCommon"] != true || body["passwordMinLength"] != float64(14) {
		t.Fatalf("policy = %d %v", code, body)
	}
	// the stored rule is the one a password set through the same API meets
	for pw, want := range map[string]int{"x7#Lq-9vB2!k": 400, "Password12345!": 400, "a sufficiently long passphrase": 201} {
		code, body := m.do(http.MethodPost, "/users", map[string]any{"orgId": orgA, "email": "rule@a.example", "name": "R", "password": pw})
		if code != want {
			t.Fatalf("password %q = %d %v, want %d", pw, code, body, want)
		}
	}
}
