package idp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// packageFiles parses the package's own (non-test) files.
func packageFiles(t *testing.T) map[string]*ast.File {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset, files := token.NewFileSet(), map[string]*ast.File{}
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[n] = f
	}
	return files
}

// The provider stays in parts (docs/idp.md): no type of the package
// declares more than fifty methods, so none grows back into the one type
// every part of the provider hung off.
func TestPartsStaySmall(t *testing.T) {
	methods := map[string]int{}
	for _, f := range packageFiles(t) {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil {
				continue
			}
			typ := fd.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				methods[id.Name]++
			}
		}
	}
	if methods["core"] == 0 || methods["passkeys"] == 0 {
		t.Fatalf("the parts were not found: %v", methods)
	}
	for typ, n := range methods {
		if n > 50 {
			t.Errorf("%s declares %d methods; split it into parts (docs/idp.md)", typ, n)
		}
	}
}

// An organization's login policy is read in one place, loginRules
// (account_policy.go), which every part asks what the policy allows; only
// the management API, which writes and checks policies, reads it besides.
func TestOneHomeOfLoginPolicy(t *testing.T) {
	readers := map[string]bool{}
	for name, f := range packageFiles(t) {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "LoginPolicy" {
					readers[name] = true
				}
			}
			return true
		})
	}
	if !readers["account_policy.go"] {
		t.Fatal("loginRules no longer reads the policy")
	}
	for name := range readers {
		if name != "account_policy.go" && !strings.HasPrefix(name, "mgmt") {
			t.Errorf("%s reads the login policy itself; ask loginRules (account_policy.go)", name)
		}
	}
}
