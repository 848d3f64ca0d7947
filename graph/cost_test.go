package graph_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/platform/platform/graph"
	"github.com/platform/platform/internal/cx"
	"github.com/platform/platform/internal/platform"
)

// mustCustomerUsers adds users to Acme until it has n (the fixtures give it
// four), as members, e-mails ordered by number.
func (e *env) mustCustomerUsers(n int) {
	e.t.Helper()
	for i := 4; i < n; i++ {
		id := fmt.Sprintf("u-acme-%03d", i)
		if err := e.st.CreateUser(ctx, &platform.User{ID: id, OrgID: "org-acme", Email: id + "@example.com", Name: id,
			PasswordHash: "$argon2id$x", CreatedAt: t0, UpdatedAt: t0}); err != nil {
			e.t.Fatal(err)
		}
		if err := e.st.PutConsoleUser(ctx, &platform.ConsoleUser{UserID: id, Role: "member", CustomerID: custAcme, CreatedAt: t0}); err != nil {
			e.t.Fatal(err)
		}
	}
}

// nestedUsers is the query of the outside review: a customer's users, each
// user's customer, its users again, four levels of users.
const nestedUsers = `{ customer(id: "cust-acme") { users { customer { users { customer { users { customer { users { id } } } } } } } } }`

// A customer owner with 30 users sent one query within the depth limit that
// walked Customer.users → CustomerUser.customer → Customer.users four times:
// each edge was priced at ten children while the store answers a hundred,
// so it passed the complexity limit (12,222) and answered 30^4 users, 38 to
// 49 MB, taking the console from 64 to 680–860 MiB. Priced at what the edge
// can return it costs 102,020,202 and is refused before any resolver runs.
// attack: graphql-nested-edges
func TestAttackNestedEdges(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.mustCustomerUsers(30)
	got := e.gql(ownerA, `{ customer(id: "cust-acme") { users { id } } }`, nil)
	if n := len(dig(got.Data, "customer", "users").([]any)); n != 30 {
		t.Fatalf("Acme has %d users, want 30: %.300s", n, got.Raw)
	}

	before := e.queries.Load()
	got = e.gql(ownerA, nestedUsers, nil)
	ran := e.queries.Load() - before
	if len(got.Errors) != 1 || got.Errors[0].code() != "COMPLEXITY_LIMIT_EXCEEDED" || got.Data != nil {
		t.Fatalf("nested users: want one COMPLEXITY_LIMIT_EXCEEDED and no data, got %d bytes: %.400s", len(got.Raw), got.Raw)
	}
	cost, _ := dig(got.Errors[0].Extensions, "cost", "estimated").(float64)
	if cost != 102_020_202 || dig(got.Errors[0].Extensions, "cost", "max") != float64(graph.MaxComplexity) {
		t.Errorf("extensions.cost = %v, want estimated 102020202, max %d", got.Errors[0].Extensions["cost"], graph.MaxComplexity)
	}
	if ran > 1 {
		t.Errorf("%d SQL statements ran for a refused operation", ran)
	}

	// Asking for fewer children is priced lower and answered: five per edge.
	const few = `{ customer(id: "cust-acme") { users(first: 5) { email customer { users(first: 5) { email customer {
		users(first: 5) { email } } } } } } }`
	got = e.gql(ownerA, few, nil)
	if len(got.Errors) > 0 {
		t.Fatalf("five per edge: %.400s", got.Raw)
	}
	users := dig(got.Data, "customer", "users").([]any)
	leaves := 0
	for _, u := range users {
		for _, v := range dig(u, "customer", "users").([]any) {
			inner := dig(v, "customer", "users").([]any)
			leaves += len(inner)
			if !slices.Equal(emails(inner), emails(users)) {
				t.Errorf("inner users %v, want the first five by e-mail %v", emails(inner), emails(users))
			}
		}
	}
	if len(users) != 5 || leaves != 125 {
		t.Errorf("%d users and %d at the third level, want 5 and 125", len(users), leaves)
	}
	if want := []string{"u-acme-004@example.com", "u-acme-005@example.com", "u-acme-006@example.com",
		"u-acme-007@example.com", "u-acme-008@example.com"}; !slices.Equal(emails(users), want) {
		t.Errorf("first five users by e-mail = %v, want %v", emails(users), want)
	}
}

func emails(list []any) []string {
	var out []string
	for _, u := range list {
		out = append(out, dig(u, "email").(string))
	}
	return out
}

// TestEdgeFirst: an edge's first is 1 to 100; out of that range the edge
// is null with BAD_USER_INPUT and its parent stays.
func TestEdgeFirst(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, first := range []int{0, 101, -1} {
		for _, edge := range []string{"tenants", "instances", "users"} {
			q := fmt.Sprintf(`{ customer(id: "cust-acme") { id %s(first: %d) { id } } }`, edge, first)
			got := e.gql(platAdm, q, nil)
			if dig(got.Data, "customer", "id") != custAcme || dig(got.Data, "customer", edge) != nil ||
				!slices.Equal(got.codes(), []string{"BAD_USER_INPUT"}) || !strings.Contains(got.Errors[0].Message, "first must be a whole number from 1 to 100") {
				t.Errorf("%s(first: %d): %s", edge, first, got.Raw)
			}
		}
		got := e.gql(platAdm, fmt.Sprintf(`{ instance(id: "inst-acme-1") { id tenants(first: %d) { id } } }`, first), nil)
		if dig(got.Data, "instance", "id") != instAcme1 || !slices.Equal(got.codes(), []string{"BAD_USER_INPUT"}) {
			t.Errorf("Instance.tenants(first: %d): %s", first, got.Raw)
		}
	}
	got := e.gql(platAdm, `{ customer(id: "cust-acme") { tenants(first: 1) { id } instances(first: 1) { id tenants(first: 1) { id } } users(first: 2) { id } } }`, nil)
	if len(got.Errors) > 0 || len(dig(got.Data, "customer", "tenants").([]any)) != 1 || len(dig(got.Data, "customer", "instances").([]any)) != 1 ||
		len(dig(got.Data, "customer", "users").([]any)) != 2 || len(dig(got.Data, "customer", "instances", 0, "tenants").([]any)) != 1 {
		t.Errorf("first 1, 1, 1, 2: %s", got.Raw)
	}
}

// TestLargestQueriesAnswer: the largest page with a modest edge, priced
// near the limit, is answered in full: each bulk customer's first eight
// tenants, ranked in SQL.
func TestLargestQueriesAnswer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.mustTenants(200) // 20 customers of 10 tenants
	const q = `{ customers(first: 1000) { items { id name tenants(first: 8) { id name } } nextCursor } }`
	cost, err := graph.OperationCost(q, nil)
	if err != nil || cost > graph.MaxComplexity || cost < graph.MaxComplexity*9/10 {
		t.Fatalf("cost %d (%v), want within the limit and near it", cost, err)
	}
	got := e.gql(platAdm, q, nil)
	if len(got.Errors) > 0 {
		t.Fatalf("refused: %.400s", got.Raw)
	}
	items := dig(got.Data, "customers", "items").([]any)
	if len(items) != 22 {
		t.Fatalf("%d customers, want 22", len(items))
	}
	for _, it := range items {
		if id := dig(it, "id").(string); strings.HasPrefix(id, "cust-bulk-") {
			tenants := dig(it, "tenants").([]any)
			n, _ := strconv.Atoi(strings.TrimPrefix(id, "cust-bulk-"))
			if len(tenants) != 8 || dig(tenants, 0, "name") != fmt.Sprintf("Bulk %03d", n*10) {
				t.Errorf("%s's tenants: %v", id, tenants)
			}
		}
	}
}

// TestCostDirectives: every list of objects in the served SDL (what a
// federation router reads) carries @listSize with a size for when no
// slicing argument is given, which is the slicing argument's default; and
// for every field, the price the endpoint enforces is the one the SDL
// publishes (weight, size for every argument value, sized fields).
func TestCostDirectives(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sdl, _ := dig(e.gql(platAdm, `{ _service { sdl } }`, nil).Data, "_service", "sdl").(string)
	if !strings.Contains(sdl, `import: ["@key", "@shareable", "@cost", "@listSize"]`) {
		t.Fatalf("the SDL does not import the cost directives")
	}
	s, gerr := gqlparser.LoadSchema(&ast.Source{Name: "federation", BuiltIn: true, Input: `
		directive @key(fields: String!, resolvable: Boolean = true) repeatable on OBJECT | INTERFACE
		directive @shareable repeatable on OBJECT | FIELD_DEFINITION
		directive @link(url: String!, import: [String!]) repeatable on SCHEMA`}, &ast.Source{Name: "sdl", Input: sdl})
	if gerr != nil {
		t.Fatal(gerr)
	}
	// The lists a parent's @listSize(sizedFields:) sizes, e.g. CustomerPage.items.
	sizedByParent := map[string]bool{}
	for _, def := range s.Types {
		for _, f := range def.Fields {
			if l := f.Directives.ForName("listSize"); l != nil {
				for _, sf := range readListSize(l).sized {
					sizedByParent[f.Type.Name()+"."+sf] = true
				}
			}
		}
	}
	var lists, leafLists int
	for _, def := range s.Types {
		if def.Kind != ast.Object || def.BuiltIn || strings.HasPrefix(def.Name, "_") {
			continue
		}
		if def.Directives.ForName("cost") != nil {
			t.Errorf("@cost on type %s: the endpoint prices fields only", def.Name)
		}
		for _, f := range def.Fields {
			name := def.Name + "." + f.Name
			c, l := f.Directives.ForName("cost"), f.Directives.ForName("listSize")
			wantWeight := 1
			if c != nil {
				wantWeight, _ = strconv.Atoi(c.Arguments.ForName("weight").Value.Raw)
			}
			elem := s.Types[f.Type.Name()]
			if f.Type.Elem != nil && (elem.Kind == ast.Scalar || elem.Kind == ast.Enum) && l == nil {
				leafLists++ // a list of leaves is priced as one field (docs/graphql.md)
				continue
			}
			if f.Type.Elem != nil && l == nil && !sizedByParent[name] {
				t.Errorf("%s returns a list of %s without @listSize", name, elem.Name)
				continue
			}
			weight, list, _, _ := graph.ListPrice(def.Name, f.Name, nil)
			if weight != wantWeight || list != (l != nil) {
				t.Errorf("%s: enforced weight %d list %v, published weight %d listSize %v", name, weight, list, wantWeight, l != nil)
			}
			if l == nil {
				continue
			}
			lists++
			published := readListSize(l)
			if published.assumed < 0 {
				t.Errorf("%s: @listSize without assumedSize", name)
			}
			for _, a := range published.slicing {
				arg := f.Arguments.ForName(a)
				if arg == nil || arg.DefaultValue == nil || arg.DefaultValue.Raw != strconv.Itoa(published.assumed) {
					t.Errorf("%s: slicing argument %s has no default, or not assumedSize %d", name, a, published.assumed)
				}
			}
			// The enforced size for the argument left out, and given.
			args := []map[string]any{nil}
			for _, a := range published.slicing {
				args = append(args, map[string]any{a: int64(1)}, map[string]any{a: int64(7)}, map[string]any{a: nil})
			}
			for _, a := range args {
				_, _, size, sized := graph.ListPrice(def.Name, f.Name, a)
				if want := published.size(a); size != want || !slices.Equal(sized, published.sized) {
					t.Errorf("%s%v: enforced size %d of %v, published %d of %v", name, a, size, sized, want, published.sized)
				}
			}
		}
	}
	if lists < 35 || leafLists < 5 {
		t.Errorf("%d lists with @listSize and %d lists of leaves: the SDL was not read", lists, leafLists)
	}

	// The sizes that stand for a bound elsewhere are that bound.
	for _, tc := range []struct {
		typ, field string
		want       int
	}{
		{"Customer", "tenants", platform.MaxChildren}, {"Customer", "instances", platform.MaxChildren}, {"Customer", "users", platform.MaxChildren},
		{"Instance", "tenants", platform.MaxChildren}, {"CxUploadResult", "errors", cx.MaxErrors}, {"CxUploadResult", "warnings", cx.MaxErrors},
		{"Me", "actions", len(s.Types["Action"].EnumValues)},
	} {
		if _, _, size, _ := graph.ListPrice(tc.typ, tc.field, nil); size != tc.want {
			t.Errorf("%s.%s is sized %d, want %d", tc.typ, tc.field, size, tc.want)
		}
	}
}

// publishedSize is a @listSize as the test reads it from the SDL.
type publishedSize struct {
	assumed        int
	slicing, sized []string
}

func readListSize(d *ast.Directive) publishedSize {
	p := publishedSize{assumed: -1}
	for _, a := range d.Arguments {
		switch a.Name {
		case "assumedSize":
			p.assumed, _ = strconv.Atoi(a.Value.Raw)
		case "slicingArguments":
			for _, v := range a.Value.Children {
				p.slicing = append(p.slicing, v.Value.Raw)
			}
		case "sizedFields":
			for _, v := range a.Value.Children {
				p.sized = append(p.sized, v.Value.Raw)
			}
		}
	}
	return p
}

// size is the cost directives' rule: the largest slicing argument given,
// else assumedSize.
func (p publishedSize) size(args map[string]any) int {
	n, given := 0, false
	for _, a := range p.slicing {
		if v, ok := args[a].(int64); ok {
			n, given = max(n, int(v)), true
		}
	}
	if !given {
		return p.assumed
	}
	return n
}

// TestConsoleOperationsFitTheBudget: every operation the console app sends
// (the documents its code generator lists in src/gql/gql.ts) is valid
// against the schema and costs at most MaxComplexity with its variables at
// their worst: every Int at the largest page (1000), every @include on.
func TestConsoleOperationsFitTheBudget(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "internal", "web", "console", "app", "src", "gql", "gql.ts"))
	if err != nil {
		t.Fatal(err)
	}
	// The Documents type: one line per document, "<the document>": typeof types.<Name>Document,
	docs := regexp.MustCompile(`(?m)^    ("(?:[^"\\]|\\.)*"): typeof types\.(\w+)Document,$`).FindAllStringSubmatch(string(b), -1)
	if len(docs) < 50 {
		t.Fatalf("%d documents in gql.ts: the file was not read", len(docs))
	}
	vars := regexp.MustCompile(`\$(\w+): (\w+)`)
	heaviest, heaviestName := 0, ""
	for _, d := range docs {
		var doc string
		if err := json.Unmarshal([]byte(d[1]), &doc); err != nil {
			t.Fatalf("%s: %v", d[2], err)
		}
		worst := map[string]any{}
		for _, v := range vars.FindAllStringSubmatch(doc, -1) {
			switch v[2] {
			case "Int":
				worst[v[1]] = int64(platform.MaxPageSize)
			case "Boolean":
				worst[v[1]] = true
			case "ID", "String":
				worst[v[1]] = "x"
			}
		}
		cost, err := graph.OperationCost(doc, worst)
		if err != nil {
			t.Errorf("%s: %v", d[2], err)
			continue
		}
		if cost > graph.MaxComplexity {
			t.Errorf("%s costs %d, over %d:\n%s", d[2], cost, graph.MaxComplexity, doc)
		}
		if cost > heaviest {
			heaviest, heaviestName = cost, d[2]
		}
	}
	t.Logf("%d operations; the heaviest, %s, costs %d", len(docs), heaviestName, heaviest)
}

// TestTypenameIsFree: urql adds __typename to every selection set of the
// console app's operations, so it must cost nothing, or the app's heaviest
// pages would be priced past the limit that its documents fit.
func TestTypenameIsFree(t *testing.T) {
	t.Parallel()
	plain := `query { grants { granteeId customer { id name } user { id } } }`
	typed := `query { __typename grants { __typename granteeId customer { __typename id name } user { __typename id } } }`
	a, err := graph.OperationCost(plain, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := graph.OperationCost(typed, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Fatalf("with __typename the operation costs %d, without %d; want the same", b, a)
	}
}
