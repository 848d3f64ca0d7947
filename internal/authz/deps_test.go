package authz

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The package stays pure: its non-test code imports only the standard
// library, and none of the packages that do I/O.
func TestDependencies(t *testing.T) {
	const self = "github.com/platform/platform/internal/authz"
	goList := func(format string, deps bool) []string {
		args := []string{"list", "-f", format}
		if deps {
			args = append(args, "-deps")
		}
		out, err := exec.Command("go", append(args, ".")...).Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		return strings.Fields(string(out))
	}
	for _, p := range goList(`{{if not .Standard}}{{.ImportPath}}{{end}}`, true) {
		if p != self {
			t.Errorf("authz depends on %s, outside the standard library", p)
		}
	}
	imports := goList(`{{join .Imports " "}}`, false)
	for _, banned := range []string{"os", "os/exec", "io/fs", "net", "net/http", "database/sql", "syscall", "unsafe", "log", "log/slog"} {
		if slices.Contains(imports, banned) {
			t.Errorf("authz imports %s", banned)
		}
	}
	if len(imports) == 0 {
		t.Fatal("go list reported no imports; the check is not running")
	}
}
