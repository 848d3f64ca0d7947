package adminhttp

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The e-mail log narrows to one user (?actorId=) or to the addresses that
// contain ?recipient= (case-insensitively, LIKE's wildcards taken
// literally), and refuses a recipient text past 200 characters.
func TestEmailLogFilters(t *testing.T) {
	t.Parallel()
	e, _, cust, owner := mailEnv(t)
	ids := map[string]string{}
	for _, name := range []string{"dora", "erin"} {
		resp := e.do(owner, http.MethodPost, "/customers/"+cust+"/users", map[string]any{"email": name + "@example.com", "name": name})
		if resp.Status != http.StatusCreated {
			t.Fatalf("invite %s: %d %s", name, resp.Status, resp.Body)
		}
		ids[name] = resp.json(t)["id"].(string)
	}
	recipients := func(query string) []string {
		t.Helper()
		resp := e.do(owner, http.MethodGet, "/email-log?"+query, nil)
		if resp.Status != http.StatusOK {
			t.Fatalf("email-log?%s: %d %s", query, resp.Status, resp.Body)
		}
		var out []string
		for _, it := range resp.json(t)["items"].([]any) {
			out = append(out, it.(map[string]any)["recipient"].(string))
		}
		return out
	}
	if got := recipients(""); len(got) != 2 {
		t.Fatalf("unfiltered = %v", got)
	}
	if got := recipients("recipient=DORA"); len(got) != 1 || got[0] != "dora@example.com" {
		t.Fatalf("recipient=DORA = %v", got)
	}
	if got := recipients("actorId=" + ids["erin"]); len(got) != 1 || got[0] != "erin@example.com" {
		t.Fatalf("actorId of erin = %v", got)
	}
	if got := recipients("recipient=" + url.QueryEscape("%")); len(got) != 0 {
		t.Fatalf("a literal %% matched %v", got)
	}
	if resp := e.do(owner, http.MethodGet, "/email-log?recipient="+strings.Repeat("a", 201), nil); resp.Status != http.StatusBadRequest {
		t.Fatalf("201-character recipient = %d %s", resp.Status, resp.Body)
	}
}
