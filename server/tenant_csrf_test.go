package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"

	"github.com/platform/platform/internal/tenant"
)

// On the running tenant role, the data API's CSRF check follows how the
// request was signed in: the session cookie (the real tenant
// authenticator) with Basic credentials and a foreign Origin is refused 403
// with nothing written, a bearer access token from anywhere is not. GraphQL
// on the same role has no such shortcut to check: it takes no form or
// text body (415) and runs no mutation over GET, which are all a page of
// another site can send without a preflight.
// spec: D-data-access
func TestTenantCSRFFollowsAuthentication(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	base := m.Config.InstanceURL
	tok, _ := demoLogin(t, m, m.Config.InstanceClientID, base+"/auth/callback", "alice@acme.example", "offline_access")
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	if resp, _ := postJSON(t, c, base+"/auth/idp/callback", tenant.CallbackRequest{IDToken: tok.Extra("id_token").(string),
		AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken, Nonce: "nonce-1"}); resp.StatusCode != 200 {
		t.Fatalf("session: %d", resp.StatusCode)
	}
	rows := func() int {
		t.Helper()
		r, err := m.Store.ScheduleRows(context.Background(), DemoHarborScheduleID)
		if err != nil {
			t.Fatal(err)
		}
		return len(r)
	}
	before := rows()
	upload := []byte(`{"scheduleId":"` + DemoHarborScheduleID + `","data":[{"ID":"HT-L9","Name":"Level 9 fit-out inspection","ParentID":"HT-BLDG"}]}`)
	forged := map[string]string{"Content-Type": "application/json", "Authorization": "Basic YWxpY2U6eA==", "Origin": "https://evil.example"}
	if code, body := dataRequest(t, c, http.MethodPost, base+"/api/v1/cx/upload", upload, forged); code != http.StatusForbidden ||
		!strings.Contains(body["error"].(map[string]any)["detail"].([]any)[0].(string), "cross-site request refused") {
		t.Errorf("cookie + Basic + foreign Origin upload: %d %v", code, body)
	}
	if n := rows(); n != before {
		t.Fatalf("a refused upload wrote rows: %d, want %d", n, before)
	}

	gql := `mutation { cxUpload(input: {scheduleId: "` + DemoHarborScheduleID + `", data: [{ID: "HT-L9", Name: "Level 9", ParentID: "HT-BLDG"}]}) { status } }`
	for ct, body := range map[string]string{
		"application/x-www-form-urlencoded": url.Values{"query": {gql}}.Encode(),
		"text/plain":                        `{"query": ` + jsonString(gql) + `}`,
	} {
		req, _ := http.NewRequest(http.MethodPost, base+"/graphql", strings.NewReader(body))
		req.Header.Set("Content-Type", ct)
		req.Header.Set("Authorization", "Basic YWxpY2U6eA==")
		req.Header.Set("Origin", "https://evil.example")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnsupportedMediaType {
			t.Errorf("GraphQL cxUpload posted as %s with the cookie: %d", ct, resp.StatusCode)
		}
	}
	req, _ := http.NewRequest(http.MethodGet, base+"/graphql?query="+url.QueryEscape(gql), nil)
	req.Header.Set("Origin", "https://evil.example")
	if resp, err := c.Do(req); err != nil {
		t.Fatal(err)
	} else if resp.Body.Close(); rows() != before {
		t.Fatalf("a GET mutation with the cookie wrote rows (%d)", resp.StatusCode)
	}

	bearer := map[string]string{"Content-Type": "application/json", "Authorization": "Bearer " + tok.AccessToken, "Origin": "https://evil.example"}
	if code, body := dataRequest(t, http.DefaultClient, http.MethodPost, base+"/api/v1/cx/upload", upload, bearer); code != 200 || body["status"] != "applied" {
		t.Errorf("bearer upload from another origin: %d %v", code, body)
	}
	if n := rows(); n != before+1 {
		t.Fatalf("rows after the bearer upload: %d, want %d", n, before+1)
	}
}

// jsonString quotes s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
