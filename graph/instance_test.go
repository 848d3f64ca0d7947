package graph_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// createInstance takes appAuthMethod as the REST route does: a confidential
// application's client secret is answered once, by the mutation; a public
// one has none; an unknown method is refused at its field and nothing is
// made.
// spec: R4.6-infra
func TestCreateInstanceAppAuthMethod(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const create = `mutation($input: CreateInstanceInput!) { createInstance(input: $input) { id clientSecret connection { oidcClientId } } }`
	input := func(name, method string) map[string]any {
		in := map[string]any{"customerId": custGlobex, "name": name, "url": "https://" + name + ".globex.example"}
		if method != "" {
			in["appAuthMethod"] = method
		}
		return map[string]any{"input": in}
	}

	t.Run("Confidential", func(t *testing.T) {
		for _, m := range []string{"client_secret_basic", "client_secret_post"} {
			r := e.gql(platAdm, create, input("conf-"+strings.ReplaceAll(m, "_", "-"), m))
			if len(r.Errors) > 0 {
				t.Fatalf("%s: %v", m, r.Errors)
			}
			got := r.Data["createInstance"].(map[string]any)
			if s, _ := got["clientSecret"].(string); !strings.HasPrefix(s, "secret-") {
				t.Errorf("%s: clientSecret = %q, want the application's secret", m, s)
			}
			// answered once: reading the instance again shows no secret
			again := e.gql(platAdm, `query($id: ID!) { instance(id: $id) { clientSecret } }`, map[string]any{"id": got["id"]})
			if s := again.Data["instance"].(map[string]any)["clientSecret"]; s != "" {
				t.Errorf("%s: secret shown again: %v", m, s)
			}
		}
	})
	t.Run("Public", func(t *testing.T) {
		for _, m := range []string{"", "none"} {
			r := e.gql(platAdm, create, input("pub"+m, m))
			if len(r.Errors) > 0 {
				t.Fatalf("%q: %v", m, r.Errors)
			}
			if s := r.Data["createInstance"].(map[string]any)["clientSecret"]; s != "" {
				t.Errorf("%q: public application with a secret: %v", m, s)
			}
		}
	})
	t.Run("ErrUnknownMethod", func(t *testing.T) {
		before := e.gql(platAdm, `{ instances(customerId: "`+custGlobex+`", first: 100) { items { id } } }`, nil)
		r := e.gql(platAdm, create, input("bad", "private_key_jwt"))
		if got := r.codes(); len(got) != 1 || got[0] != "BAD_USER_INPUT" || !strings.HasPrefix(r.Errors[0].Message, "appAuthMethod") {
			t.Fatalf("errors = %+v, want BAD_USER_INPUT naming appAuthMethod", r.Errors)
		}
		after := e.gql(platAdm, `{ instances(customerId: "`+custGlobex+`", first: 100) { items { id } } }`, nil)
		if n, m := len(before.Data["instances"].(map[string]any)["items"].([]any)), len(after.Data["instances"].(map[string]any)["items"].([]any)); n != m {
			t.Errorf("instances %d → %d after a refused create", n, m)
		}
	})
	t.Run("ErrForbidden", func(t *testing.T) {
		// qa_admin reads instances in its scope but may not create them (R4.6-infra)
		r := e.gql(qaAdm, create, input("qa", "client_secret_basic"))
		if got := r.codes(); len(got) != 1 || got[0] != "FORBIDDEN" {
			t.Fatalf("qa_admin create: %+v", r.Errors)
		}
	})
}

// rotateInstanceSecret answers a confidential application's new client
// secret once (the resolver is the service's; the provider's side is tested
// in server/); the rotation is audited with the instance's customer. A
// public application answers CONFLICT with a sentence; reader (read only)
// and account_manager (none) are refused.
// spec: R4.6-infra
func TestRotateInstanceSecret(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const create = `mutation($input: CreateInstanceInput!) { createInstance(input: $input) { id clientSecret connection { oidcClientId } } }`
	const rotate = `mutation($id: ID!) { rotateInstanceSecret(id: $id) { instanceId clientId clientSecret } }`
	mk := func(name, method string) (string, string, string) {
		r := e.gql(platAdm, create, map[string]any{"input": map[string]any{"customerId": custAcme, "name": name,
			"url": "https://" + name + ".acme.example", "appAuthMethod": method}})
		if len(r.Errors) > 0 {
			t.Fatalf("create %s: %v", name, r.Errors)
		}
		id, _ := dig(r.Data, "createInstance", "id").(string)
		cid, _ := dig(r.Data, "createInstance", "connection", "oidcClientId").(string)
		s, _ := dig(r.Data, "createInstance", "clientSecret").(string)
		return id, cid, s
	}
	id, clientID, first := mk("portal", "client_secret_post")

	r := e.gql(platAdm, rotate, map[string]any{"id": id})
	if len(r.Errors) > 0 {
		t.Fatalf("rotate: %v", r.Errors)
	}
	got, _ := r.Data["rotateInstanceSecret"].(map[string]any)
	if s, _ := got["clientSecret"].(string); !strings.HasPrefix(s, "secret-") || s == first || got["clientId"] != clientID || got["instanceId"] != id {
		t.Fatalf("rotateInstanceSecret = %v (was %q)", got, first)
	}
	audit := e.gql(platAdm, `{ auditLog(first: 5) { items { action operation resource customerId outcome } } }`, nil)
	items, _ := dig(audit.Data, "auditLog", "items").([]any)
	found := false
	for _, it := range items {
		ev := it.(map[string]any)
		if ev["action"] == "manage_instances" && ev["operation"] == "instance.secret_rotate" && ev["resource"] == "instances/"+id &&
			ev["customerId"] == custAcme && ev["outcome"] == "success" {
			found = true
		}
	}
	if !found {
		t.Errorf("the rotation is not audited: %s", audit.Raw)
	}

	pub, _, _ := mk("public", "none")
	r = e.gql(platAdm, rotate, map[string]any{"id": pub})
	if got := r.codes(); len(got) != 1 || got[0] != "CONFLICT" || !strings.Contains(r.Errors[0].Message, "public client") {
		t.Fatalf("public instance: %+v", r.Errors)
	}
	for _, u := range []string{readerU, acctMgr} {
		r := e.gql(u, rotate, map[string]any{"id": id})
		if got := r.codes(); len(got) != 1 || got[0] != "FORBIDDEN" || dig(r.Data, "rotateInstanceSecret") != nil {
			t.Errorf("%s: %+v", u, r.Errors)
		}
	}
}

// instances(search:) finds instances by a part of their name, whatever the
// case, within the caller's scope only (platform_admin in focus on Globex
// finds none of Acme's); LIKE's wildcards match themselves; a search past
// 200 characters is BAD_USER_INPUT.
//
// spec: R5.7-and
func TestInstanceSearch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.gql(platAdm, `mutation { createInstance(input: {customerId: "cust-globex", name: "Globex North", url: "https://north.globex.example"}) { id } }`, nil)
	if len(r.Errors) > 0 {
		t.Fatalf("create: %s", r.Raw)
	}
	globex := dig(r.Data, "createInstance", "id").(string)
	found := func(user, search string) []string {
		t.Helper()
		r := e.gql(user, `query($s: String) { instances(first: 50, search: $s) { items { id } } }`, map[string]any{"s": search})
		if len(r.Errors) > 0 {
			t.Fatalf("%s searching %q: %s", user, search, r.Raw)
		}
		var ids []string
		for _, it := range dig(r.Data, "instances", "items").([]any) {
			ids = append(ids, dig(it, "id").(string))
		}
		return ids
	}
	for _, c := range []struct {
		user, search string
		want         []string
	}{
		{platAdm, "ACME-2", []string{instAcme2}},
		{platAdm, "  north ", []string{globex}},
		{platAdm, "inst", []string{instAcme1, instAcme2}},
		{platAdm, "", []string{globex, instAcme1, instAcme2}},
		{platAdm, "_", nil},
		{platAdm, "%", nil},
		{focusU, "acme", nil},
		{focusU, "glob", []string{globex}},
	} {
		if got := found(c.user, c.search); !slices.Equal(got, c.want) {
			t.Errorf("%s searching %q found %v, want %v", c.user, c.search, got, c.want)
		}
	}
	r = e.gql(platAdm, `query($s: String) { instances(search: $s) { items { id } } }`, map[string]any{"s": strings.Repeat("x", 201)})
	r.expect(t, []string{"BAD_USER_INPUT"}, nil, []any{"instances"})
}

// account_manager and qa_admin read the instances of their scope over
// GraphQL as over REST (D-instance-reads): the lists filtered in SQL, one
// outside the scope FORBIDDEN, the connection FORBIDDEN, and createInstance
// refused; the edges to instances (Customer.instances, Tenant.instance)
// answer the same instances.
// spec: R4.6-infra, R5.7-strict, R5.7-and
func TestScopedRolesReadInstances(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ids := func(r gqlResponse, path ...any) []string {
		t.Helper()
		items, _ := dig(r.Data, path...).([]any)
		var out []string
		for _, it := range items {
			out = append(out, it.(map[string]any)["id"].(string))
		}
		slices.Sort(out)
		return out
	}
	restIDs := func(user string) []string {
		t.Helper()
		status, body := e.rest(user, "GET", "/api/v1/instances", nil)
		var p struct{ Items []struct{ ID string } }
		if err := json.Unmarshal(body, &p); status != 200 || err != nil {
			t.Fatalf("REST as %s: %d %s", user, status, body)
		}
		var out []string
		for _, i := range p.Items {
			out = append(out, i.ID)
		}
		slices.Sort(out)
		return out
	}
	for user, want := range map[string][]string{acctMgr: {instAcme1, instAcme2}, qaAdm: {instAcme1}} {
		r := e.gql(user, `{ instances(first: 100) { items { id name customer { id } } } }`, nil)
		if len(r.Errors) > 0 || !slices.Equal(ids(r, "instances", "items"), want) {
			t.Errorf("%s instances = %v %v, want %v", user, ids(r, "instances", "items"), r.Errors, want)
		}
		if got := restIDs(user); !slices.Equal(got, want) {
			t.Errorf("%s REST instances = %v, want %v", user, got, want)
		}
		r = e.gql(user, `{ customer(id: "`+custAcme+`") { instances { id } } }`, nil)
		if len(r.Errors) > 0 || !slices.Equal(ids(r, "customer", "instances"), want) {
			t.Errorf("%s Customer.instances = %v %v, want %v", user, ids(r, "customer", "instances"), r.Errors, want)
		}
		r = e.gql(user, `{ tenant(id: "`+tenAcme+`") { instance { id } } }`, nil)
		if len(r.Errors) > 0 || dig(r.Data, "tenant", "instance", "id") != instAcme1 {
			t.Errorf("%s Tenant.instance: %s", user, r.Raw)
		}
		r = e.gql(user, `{ instance(id: "`+instAcme1+`") { id connection { oidcClientId } } }`, nil)
		if got := r.codes(); dig(r.Data, "instance", "id") != instAcme1 || dig(r.Data, "instance", "connection") != nil ||
			len(got) != 1 || got[0] != "FORBIDDEN" {
			t.Errorf("%s reads a connection: %s", user, r.Raw)
		}
		r = e.gql(user, `mutation { createInstance(input: {customerId: "`+custAcme+`", name: "x", url: "https://x.example"}) { id } }`, nil)
		if got := r.codes(); len(got) != 1 || got[0] != "FORBIDDEN" {
			t.Errorf("%s createInstance: %s", user, r.Raw)
		}
	}
	r := e.gql(qaAdm, `{ instance(id: "`+instAcme2+`") { id } }`, nil)
	if got := r.codes(); len(got) != 1 || got[0] != "FORBIDDEN" || dig(r.Data, "instance") != nil {
		t.Errorf("qa_admin reads an instance it is not granted: %s", r.Raw)
	}
	r = e.gql(ownerA, `{ instances { items { id } } }`, nil)
	if got := r.codes(); len(got) != 1 || got[0] != "FORBIDDEN" {
		t.Errorf("a customer owner lists instances: %s", r.Raw)
	}
}
