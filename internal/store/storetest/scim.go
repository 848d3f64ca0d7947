package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// testSCIM covers what the SCIM server keeps and asks: tokens (by hash,
// revoked ones refused, the last use), externalIds unique in a customer,
// the filters rendered as conditions (wildcards taken literally, case
// kept for externalId), paging by offset, and a group's members.
func testSCIM(t *testing.T, st *store.Store) {
	mustCustomers(t, st, "c1", "c2")
	for i, u := range []struct{ id, org, email string }{
		{"u1", "org-c1", "ann@one.example"}, {"u2", "org-c1", "bob_x@one.example"}, {"u3", "org-c1", "cy%@one.example"},
		{"u4", "org-c2", "ann@two.example"},
	} {
		mustUser(t, st, u.id, u.org, u.email)
		if err := st.RenameUser(ctx, u.id, []string{"Ann", "Bob", "Cy", "Ann"}[i], ts); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("Tokens", func(t *testing.T) {
		tok := &store.SCIMToken{ID: "t1", CustomerID: "c1", Name: "Entra", TokenHash: "h1", CreatedBy: "u1", CreatedAt: ts}
		if err := st.CreateSCIMToken(ctx, tok); err != nil {
			t.Fatal(err)
		}
		got, err := st.UseSCIMToken(ctx, "h1", ts.Add(time.Hour))
		if err != nil || got.ID != "t1" || got.CustomerID != "c1" || !got.LastUsedAt.Equal(ts.Add(time.Hour)) {
			t.Fatalf("use = %+v %v", got, err)
		}
		if got, _ := st.UseSCIMToken(ctx, "h1", ts.Add(time.Hour+time.Second)); !got.LastUsedAt.Equal(ts.Add(time.Hour)) {
			t.Errorf("the last use was written again within the minute: %v", got.LastUsedAt)
		}
		_, err = st.UseSCIMToken(ctx, "h2", ts)
		wantCode(t, err, platform.ENOTFOUND)
		wantCode(t, st.DeleteSCIMToken(ctx, "t1"), platform.ENOTFOUND) // a live token is revoked first
		if err := st.RevokeSCIMToken(ctx, "t1", ts.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := st.RevokeSCIMToken(ctx, "t1", ts.Add(3*time.Hour)); err != nil {
			t.Fatal(err)
		}
		_, err = st.UseSCIMToken(ctx, "h1", ts.Add(4*time.Hour))
		wantCode(t, err, platform.ENOTFOUND)
		list, err := st.SCIMTokens(ctx, "c1")
		if err != nil || len(list) != 1 || !list[0].RevokedAt.Equal(ts.Add(2*time.Hour)) {
			t.Fatalf("tokens = %+v %v", list, err)
		}
		if list, _ := st.SCIMTokens(ctx, "c2"); len(list) != 0 {
			t.Errorf("c2's tokens = %+v", list)
		}
		wantCode(t, st.CreateSCIMToken(ctx, &store.SCIMToken{ID: "t2", CustomerID: "c1", Name: "x", TokenHash: "h1", CreatedAt: ts}), platform.ECONFLICT)
		for i := 1; i < store.MaxSCIMTokens; i++ {
			id := "t-" + string(rune('a'+i%26)) + string(rune('a'+i/26))
			if err := st.CreateSCIMToken(ctx, &store.SCIMToken{ID: id, CustomerID: "c1", Name: id, TokenHash: "hash-" + id, CreatedAt: ts}); err != nil {
				t.Fatal(err)
			}
		}
		wantCode(t, st.CreateSCIMToken(ctx, &store.SCIMToken{ID: "t-over", CustomerID: "c1", Name: "x", TokenHash: "hx", CreatedAt: ts}), platform.ELIMIT)
		if err := st.DeleteSCIMToken(ctx, "t1"); err != nil {
			t.Fatal(err)
		}
	})

	// D-scim-internal: a token of no customer is the administrator
	// organization's, listed apart from every customer's
	t.Run("AdministratorTokens", func(t *testing.T) {
		if err := st.CreateSCIMToken(ctx, &store.SCIMToken{ID: "ta", Name: "Internal", TokenHash: "ha", CreatedAt: ts}); err != nil {
			t.Fatal(err)
		}
		got, err := st.UseSCIMToken(ctx, "ha", ts)
		if err != nil || got.ID != "ta" || got.CustomerID != "" {
			t.Fatalf("use = %+v %v", got, err)
		}
		if list, err := st.SCIMTokens(ctx, ""); err != nil || len(list) != 1 || list[0].ID != "ta" {
			t.Errorf("the administrator organization's tokens = %+v %v", list, err)
		}
		for _, c := range []string{"c1", "c2"} {
			list, err := st.SCIMTokens(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			for _, tok := range list {
				if tok.ID == "ta" {
					t.Errorf("%s lists the administrator organization's token", c)
				}
			}
		}
	})

	t.Run("AdministratorUsers", func(t *testing.T) {
		mustOrg(t, st, "org-admin")
		mustUser(t, st, "u9", "org-admin", "ops@admin.example")
		if err := st.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: "u9", Role: "reader", CreatedAt: ts}); err != nil {
			t.Fatal(err)
		}
		if err := st.SetSCIMExternalID(ctx, "org-admin", "u9", "Ext-1"); err != nil { // unique per organization
			t.Fatal(err)
		}
		rows, total, err := st.SCIMUsers(ctx, "org-admin", nil, 0, 10)
		if err != nil || total != 1 || rows[0].ID != "u9" || rows[0].CustomerID != "" || rows[0].Role != "reader" || rows[0].ExternalID != "Ext-1" {
			t.Fatalf("administrator organization's users = %+v %d %v", rows, total, err)
		}
		_, err = st.SCIMUser(ctx, "org-c1", "u9")
		wantCode(t, err, platform.ENOTFOUND)
		if err := st.DeleteUser(ctx, "u9"); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("UsersAndFilters", func(t *testing.T) {
		if err := st.SetSCIMExternalID(ctx, "org-c1", "u1", "Ext-1"); err != nil {
			t.Fatal(err)
		}
		wantCode(t, st.SetSCIMExternalID(ctx, "org-c1", "u2", "Ext-1"), platform.ECONFLICT)
		if err := st.SetSCIMExternalID(ctx, "org-c2", "u4", "Ext-1"); err != nil { // unique per organization
			t.Fatal(err)
		}
		if err := st.SetUserSuspended(ctx, "u2", ts); err != nil {
			t.Fatal(err)
		}
		cmp := func(op, attr, v string) *store.SCIMFilter { return &store.SCIMFilter{Op: op, Attr: attr, Value: v} }
		for name, c := range map[string]struct {
			f    *store.SCIMFilter
			want []string
		}{
			"all":                {nil, []string{"u1", "u2", "u3"}},
			"userName eq":        {cmp("eq", "userName", "ANN@one.example"), []string{"u1"}},
			"userName sw _":      {cmp("sw", "userName", "bob_"), []string{"u2"}},
			"underscore literal": {cmp("co", "userName", "n_"), nil},
			"percent literal":    {cmp("co", "emails.value", "%@"), []string{"u3"}},
			"externalId exact":   {cmp("eq", "externalId", "ext-1"), nil},
			"externalId eq":      {cmp("eq", "externalId", "Ext-1"), []string{"u1"}},
			"externalId pr":      {cmp("pr", "externalId", ""), []string{"u1"}},
			"externalId ne":      {cmp("ne", "externalId", "Ext-1"), []string{"u2", "u3"}},
			"displayName co":     {cmp("co", "displayName", "b"), []string{"u2"}},
			"id eq":              {cmp("eq", "id", "u3"), []string{"u3"}},
			"active":             {&store.SCIMFilter{Op: "eq", Attr: "active", Active: true}, []string{"u1", "u3"}},
			"inactive":           {&store.SCIMFilter{Op: "ne", Attr: "active", Active: true}, []string{"u2"}},
			"or":                 {&store.SCIMFilter{Op: "or", Left: cmp("eq", "id", "u1"), Right: cmp("eq", "id", "u2")}, []string{"u1", "u2"}},
			"and":                {&store.SCIMFilter{Op: "and", Left: cmp("co", "userName", "one"), Right: cmp("sw", "displayName", "c")}, []string{"u3"}},
			"another customer's": {cmp("eq", "id", "u4"), nil},
		} {
			rows, total, err := st.SCIMUsers(ctx, "org-c1", c.f, 0, 100)
			var ids []string
			for _, r := range rows {
				ids = append(ids, r.ID)
			}
			if err != nil || total != len(c.want) || !slices.Equal(ids, c.want) {
				t.Errorf("%s: %v (total %d) %v, want %v", name, ids, total, err, c.want)
			}
		}
		rows, total, err := st.SCIMUsers(ctx, "org-c1", nil, 1, 1)
		if err != nil || total != 3 || len(rows) != 1 || rows[0].ID != "u2" || rows[0].ExternalID != "" || rows[0].SuspendedAt.IsZero() {
			t.Errorf("page = %+v %d %v", rows, total, err)
		}
		if rows, total, _ := st.SCIMUsers(ctx, "org-c1", nil, 5, 10); len(rows) != 0 || total != 3 {
			t.Errorf("past the end = %+v %d", rows, total)
		}
		u, err := st.SCIMUser(ctx, "org-c1", "u1")
		if err != nil || u.ExternalID != "Ext-1" || u.Email != "ann@one.example" {
			t.Errorf("user = %+v %v", u, err)
		}
		_, err = st.SCIMUser(ctx, "org-c1", "u4")
		wantCode(t, err, platform.ENOTFOUND)
		if err := st.SetSCIMExternalID(ctx, "org-c1", "u1", ""); err != nil {
			t.Fatal(err)
		}
		if u, _ := st.SCIMUser(ctx, "org-c1", "u1"); u.ExternalID != "" {
			t.Errorf("cleared externalId = %q", u.ExternalID)
		}
	})

	t.Run("Groups", func(t *testing.T) {
		for _, g := range []platform.Group{{ID: "g1", OrgID: "org-c1", Name: "Ops", ExternalID: "E1"}, {ID: "g2", OrgID: "org-c1", Name: "Fin"},
			{ID: "g3", OrgID: "org-c2", Name: "Ops"}} {
			g.CreatedAt, g.UpdatedAt = ts, ts
			if err := st.CreateGroup(ctx, &g); err != nil {
				t.Fatal(err)
			}
		}
		for _, u := range []string{"u1", "u2", "u3"} {
			if _, err := st.AddGroupMember(ctx, false, "g1", u, ts); err != nil {
				t.Fatal(err)
			}
		}
		rows, total, err := st.SCIMGroups(ctx, "org-c1", &store.SCIMFilter{Op: "eq", Attr: "members.value", Value: "u2"}, 0, 10)
		if err != nil || total != 1 || rows[0].ID != "g1" {
			t.Errorf("groups of u2 = %+v %d %v", rows, total, err)
		}
		if rows, total, _ := st.SCIMGroups(ctx, "org-c1", &store.SCIMFilter{Op: "eq", Attr: "displayName", Value: "ops"}, 0, 10); total != 1 || rows[0].ID != "g1" {
			t.Errorf("by name = %+v", rows)
		}
		if err := st.KeepGroupMembers(ctx, "g1", []string{"u1", "u3"}); err != nil {
			t.Fatal(err)
		}
		if err := st.RemoveGroupMembers(ctx, "g1", []string{"u3", "u4"}); err != nil {
			t.Fatal(err)
		}
		ms, err := st.SCIMGroupMembers(ctx, "g1", 10)
		if err != nil || len(ms) != 1 || ms[0].UserID != "u1" {
			t.Errorf("members = %+v %v", ms, err)
		}
		if err := st.KeepGroupMembers(ctx, "g1", nil); err != nil {
			t.Fatal(err)
		}
		if ms, _ := st.SCIMGroupMembers(ctx, "g1", 10); len(ms) != 0 {
			t.Errorf("members after clearing = %+v", ms)
		}
		if err := st.TouchGroup(ctx, "g1", ts.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if g, _ := st.Group(ctx, "g1"); !g.UpdatedAt.Equal(ts.Add(time.Hour)) {
			t.Errorf("updated at %v", g.UpdatedAt)
		}
	})
}
