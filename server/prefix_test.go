package main

import (
	"encoding/json"
	"net/http"
	"testing"
)

// The data and console APIs live under /api/v1: an unauthenticated call to a
// versioned path answers the API's 401 error object, and the same path
// without the prefix is not an API route.
//
// spec: R9-prefix
func TestAPIPathsCarryVersionPrefix(t *testing.T) {
	t.Parallel()
	m := MustRunMain(t)
	for _, tc := range []struct{ base, path string }{
		{m.Config.ConsoleURL, "/me/permissions"},
		{m.Config.ConsoleURL, "/customers"},
		{m.Config.ConsoleURL, "/auth/me"},
		{m.Config.InstanceURL, "/master-record/Building"},
		{m.Config.InstanceURL, "/me/tenants"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			resp, err := http.Get(tc.base + "/api/v1" + tc.path)
			if err != nil {
				t.Fatal(err)
			}
			var body struct {
				Code int    `json:"code"`
				Path string `json:"path"`
			}
			err = json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized || err != nil || body.Code != 401 || body.Path != "/api/v1"+tc.path {
				t.Errorf("/api/v1%s: status %d, body %+v, err %v; want the 401 error object", tc.path, resp.StatusCode, body, err)
			}
			resp, err = http.Get(tc.base + tc.path)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusOK {
				t.Errorf("%s without /api/v1 answered %d; it must not be an API route", tc.path, resp.StatusCode)
			}
		})
	}
}
