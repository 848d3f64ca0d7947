package authz

import (
	"encoding/csv"
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// MustSpecCatalog compiles the spec's matrix or fails the test.
func MustSpecCatalog(t testing.TB) *Catalog {
	t.Helper()
	c, err := NewCatalog(SpecMatrix())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// readMatrixCSV reads testdata/matrix.csv, the spec's matrix written out cell
// by cell (role, action, access) for every role and every action.
func readMatrixCSV(t *testing.T) map[[2]string]string {
	t.Helper()
	f, err := os.Open("testdata/matrix.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"role", "action", "access"}, rows[0]); diff != "" {
		t.Fatalf("header (-want +got):\n%s", diff)
	}
	cells := make(map[[2]string]string)
	for _, row := range rows[1:] {
		key := [2]string{row[0], row[1]}
		if _, dup := cells[key]; dup {
			t.Fatalf("matrix.csv: %s %s twice", row[0], row[1])
		}
		cells[key] = row[2]
	}
	return cells
}

// spec: R5.7-matrix
func TestSpecMatrixCells(t *testing.T) {
	cells := readMatrixCSV(t)
	c := MustSpecCatalog(t)

	// Catalog to file: every role × action cell, none included.
	for _, r := range Roles() {
		for _, a := range Actions() {
			want, ok := cells[[2]string{r.String(), a.String()}]
			if !ok {
				t.Errorf("matrix.csv lacks %s %s", r, a)
				continue
			}
			if got := c.Access(r, a).String(); got != want {
				t.Errorf("Access(%s, %s) = %s, matrix.csv says %s", r, a, got, want)
			}
		}
	}
	// File to catalog: every cell names a known role and action and agrees.
	if len(cells) != len(Roles())*len(Actions()) {
		t.Errorf("matrix.csv has %d cells, want %d", len(cells), len(Roles())*len(Actions()))
	}
	for key, want := range cells {
		r, err := ParseRole(key[0])
		if err != nil || r.String() != key[0] {
			t.Errorf("matrix.csv: role %q: %v", key[0], err)
			continue
		}
		a, err := ParseAction(key[1])
		if err != nil {
			t.Errorf("matrix.csv: %v", err)
			continue
		}
		if got := c.Access(r, a).String(); got != want {
			t.Errorf("matrix.csv says %s %s = %s, catalog has %s", r, a, want, got)
		}
	}
}

// spec: R5.7-matrix
func TestSpecMatrixNotes(t *testing.T) {
	c := MustSpecCatalog(t)
	// "View usage units only: every role".
	for _, r := range Roles() {
		if got := c.Access(r, ViewUsageUnits); got != AccessFull {
			t.Errorf("Access(%s, view_usage_units) = %s, want full", r, got)
		}
	}
	// member appears nowhere else in the spec's matrix; of the data API's
	// actions (D-data-access) it reads tenant data and uploads cx data.
	if diff := cmp.Diff([]Action{ViewUsageUnits, ReadTenantData, UploadCxData}, c.Allowed(Member)); diff != "" {
		t.Errorf("Allowed(member) (-want +got):\n%s", diff)
	}
	for _, a := range Actions() {
		want := AccessFull
		switch a {
		case ReadTenantData:
			want = AccessRead // reading is all there is to it
		case UploadCxData, AllowImpersonation:
			want = AccessNone // cx data and the decision on impersonation are the customer's own
		}
		if got := c.Access(PlatformAdmin, a); got != want {
			t.Errorf("Access(platform_admin, %s) = %s, want %s", a, got, want)
		}
	}
	for _, r := range Roles() {
		if got := c.Access(r, ReadTenantData); got != AccessRead {
			t.Errorf("Access(%s, read_tenant_data) = %s, want read", r, got)
		}
		want := AccessNone
		if r == Owner || r == Admin || r == Member {
			want = AccessFull
		}
		if got := c.Access(r, UploadCxData); got != want {
			t.Errorf("Access(%s, upload_cx_data) = %s, want %s", r, got, want)
		}
	}
	if diff := cmp.Diff(SpecMatrix(), c.Entries(), cmp.Transformer("sort", sortEntries)); diff != "" {
		t.Errorf("Entries() (-SpecMatrix +got):\n%s", diff)
	}
}

func sortEntries(in []Entry) []Entry {
	out := slices.Clone(in)
	slices.SortFunc(out, func(a, b Entry) int {
		if a.Role != b.Role {
			return int(a.Role) - int(b.Role)
		}
		return int(a.Action) - int(b.Action)
	})
	return out
}

// migrationRows reads the one role_permissions INSERT of a migration: one
// row per line, the statement ending with the last line of the file.
func migrationRows(t *testing.T, name string) [][3]string {
	t.Helper()
	body, err := os.ReadFile("../../migrations/" + name)
	if err != nil {
		t.Fatal(err)
	}
	sql := string(body)
	const insert = "INSERT INTO role_permissions (role, action, access) VALUES\n"
	i := strings.Index(sql, insert)
	if i < 0 || strings.Count(sql, "INSERT") != 1 {
		t.Fatalf("%s must hold one %q", name, insert)
	}
	var got [][3]string
	lines := strings.Split(strings.TrimRight(sql[i+len(insert):], "\n"), "\n")
	for n, line := range lines {
		m := migrationRow.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("%s row %d: cannot read %q", name, n+1, line)
		}
		if last := n == len(lines)-1; last != (m[4] == ";") {
			t.Fatalf("%s row %d: %q: only the last row ends the statement", name, n+1, line)
		}
		got = append(got, [3]string{m[1], m[2], m[3]})
	}
	return got
}

var migrationRow = regexp.MustCompile(`^\s*\('([a-z_]+)', '([a-z_]+)', '(full|read)'\)([,;])$`)

// The migrations that seed role_permissions: the table and the spec's
// matrix, then the data API's actions.
var catalogMigrations = []string{"0003_authz.sql", "0013_access_path.sql", "0014_trust_identity_provider.sql", "0038_impersonation.sql"}

// spec: R5.7-catalog
func TestMigrationSeedsSpecMatrix(t *testing.T) {
	body, err := os.ReadFile("../../migrations/" + catalogMigrations[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"CREATE TABLE role_permissions (",
		"role   TEXT NOT NULL,",
		"action TEXT NOT NULL,",
		"access TEXT NOT NULL CHECK (access IN ('full', 'read')),",
		"PRIMARY KEY (role, action)",
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("migration lacks %q", want)
		}
	}
	var got [][3]string
	for _, name := range catalogMigrations {
		got = append(got, migrationRows(t, name)...)
	}
	var want [][3]string
	for _, e := range SpecMatrix() {
		want = append(want, [3]string{e.Role.String(), e.Action.String(), e.Access.String()})
	}
	sortRows := cmp.Transformer("sort", func(in [][3]string) [][3]string {
		out := slices.Clone(in)
		slices.SortFunc(out, func(a, b [3]string) int { return strings.Compare(a[0]+" "+a[1], b[0]+" "+b[1]) })
		return out
	})
	if diff := cmp.Diff(want, got, sortRows); diff != "" {
		t.Errorf("migration rows (-SpecMatrix +migration):\n%s", diff)
	}

	// The rows compile as the store would load them.
	var entries []Entry
	for _, row := range got {
		e, err := ParseEntry(row[0], row[1], row[2])
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, e)
	}
	if _, err := NewCatalog(entries); err != nil {
		t.Fatal(err)
	}
}

// spec: R5.7-catalog, R5.7-never, R4.6-admin-only, R4.6-owner-transfer, R5.7-no-infra, R5.7-no-tenant, R5.7-am, R4.6-infra
func TestNewCatalogRejects(t *testing.T) {
	tests := []struct {
		name  string
		entry Entry
		is    error
	}{
		{"ErrUnknownRole", Entry{Role(0), ViewBilling, AccessRead}, ErrUnknownRole},
		{"ErrRoleOutOfRange", Entry{Role(numRoles), ViewBilling, AccessRead}, ErrUnknownRole},
		{"ErrUnknownAction", Entry{Reader, Action(0), AccessRead}, ErrUnknownAction},
		{"ErrActionOutOfRange", Entry{Reader, Action(numActions), AccessRead}, ErrUnknownAction},
		{"ErrAccessNone", Entry{Reader, ViewBilling, AccessNone}, nil},
		{"ErrAccessUnknown", Entry{Reader, ViewBilling, Access(7)}, nil},
		{"ErrAccountManagerCreatesCustomer", Entry{AccountManager, CreateCustomer, AccessFull}, ErrInvariant},
		{"ErrReaderCreatesCustomerReadOnly", Entry{Reader, CreateCustomer, AccessRead}, ErrInvariant},
		{"ErrOwnerTransfersTenant", Entry{Owner, TransferTenant, AccessFull}, ErrInvariant},
		{"ErrInfraOpsTransfersHomeOrg", Entry{InfraOps, TransferHomeOrg, AccessFull}, ErrInvariant},
		{"ErrAccountManagerTransfersOwnership", Entry{AccountManager, TransferOwnership, AccessFull}, ErrInvariant},
		{"ErrAdminTransfersOwnership", Entry{Admin, TransferOwnership, AccessFull}, ErrInvariant},
		{"ErrOwnerReleases", Entry{Owner, ManageReleases, AccessRead}, ErrInvariant},
		{"ErrAdminDatabaseURI", Entry{Admin, ResolveDatabaseURI, AccessFull}, ErrInvariant},
		{"ErrViewerInstances", Entry{Viewer, ManageInstances, AccessRead}, ErrInvariant},
		{"ErrAccountManagerSystemWorkers", Entry{AccountManager, ManageSystemWorkers, AccessFull}, ErrInvariant},
		{"ErrQAAdminPlans", Entry{QAAdmin, ManageCatalog, AccessRead}, ErrInvariant},
		{"ErrOwnerCreatesTenant", Entry{Owner, CreateTenant, AccessFull}, ErrInvariant},
		{"ErrAdminDeletesTenant", Entry{Admin, DeleteTenant, AccessFull}, ErrInvariant},
		{"ErrPlatformAdminUploadsCx", Entry{PlatformAdmin, UploadCxData, AccessFull}, ErrInvariant},
		{"ErrAccountManagerUploadsCx", Entry{AccountManager, UploadCxData, AccessFull}, ErrInvariant},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			entries := append(SpecMatrix(), tt.entry)
			c, err := NewCatalog(entries)
			if err == nil {
				t.Fatalf("NewCatalog accepted %+v", tt.entry)
			}
			if c != nil {
				t.Error("NewCatalog returned a catalog with its error")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error = %v, want %v", err, tt.is)
			}
		})
	}
	t.Run("ErrDuplicate", func(t *testing.T) {
		if _, err := NewCatalog(append(SpecMatrix(), Entry{Reader, ViewBilling, AccessFull})); err == nil {
			t.Fatal("NewCatalog accepted a second reader view_billing entry")
		}
	})
	t.Run("ReportsEveryProblem", func(t *testing.T) {
		_, err := NewCatalog([]Entry{{Owner, CreateCustomer, AccessFull}, {Member, ManageReleases, AccessFull}})
		for _, want := range []string{"owner create_customer", "member manage_releases"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("error %v does not name %q", err, want)
			}
		}
	})
	t.Run("OK", func(t *testing.T) {
		c, err := NewCatalog([]Entry{{Reader, ManageReleases, AccessRead}, {Owner, TransferOwnership, AccessFull}})
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Access(Reader, ManageReleases); got != AccessRead {
			t.Errorf("Access = %s", got)
		}
	})
}

// spec: R5.7-catalog
func TestParseEntry(t *testing.T) {
	got, err := ParseEntry("ops_engineer", "manage_releases", "full")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Entry{InfraOps, ManageReleases, AccessFull}, got); diff != "" {
		t.Errorf("ParseEntry (-want +got):\n%s", diff)
	}
	for _, bad := range [][3]string{
		{"root", "manage_releases", "full"},
		{"reader", "drop_tables", "read"},
		{"reader", "manage_releases", "write"},
	} {
		if _, err := ParseEntry(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("ParseEntry%q accepted", bad)
		}
	}
}

func TestCatalogUnknownLookups(t *testing.T) {
	c := MustSpecCatalog(t)
	var nilCatalog *Catalog
	for _, got := range []Access{
		c.Access(0, CreateCustomer),
		c.Access(Role(200), CreateCustomer),
		c.Access(PlatformAdmin, 0),
		c.Access(PlatformAdmin, Action(200)),
		nilCatalog.Access(PlatformAdmin, CreateCustomer),
	} {
		if got != AccessNone {
			t.Errorf("unknown look-up = %s, want none", got)
		}
	}
	if got := c.Allowed(0); got != nil {
		t.Errorf("Allowed(0) = %v", got)
	}
}
