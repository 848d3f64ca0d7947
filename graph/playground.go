package graph

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"strings"

	"github.com/platform/platform/internal/httpapi"
)

// playgroundFiles are GraphiQL and React's browser builds, vendored from
// npm by playground/vendor.mjs from playground/package-lock.json, and the
// page that starts them: the playground loads nothing from another host.
//
//go:embed playground/assets/*.js playground/assets/*.css playground/page/*.js playground/page/*.css
var playgroundFiles embed.FS

//go:embed playground/page/index.html
var playgroundHTML string

var playgroundTemplate = template.Must(template.New("playground").Parse(playgroundHTML))

// consoleExample is the query the console's playground opens with.
const consoleExample = `# The playground signs in with your console session and runs
# operations as you: press Run (Ctrl-Enter) to try this one.
# The Docs and the autocompletion come from the schema.
query Example {
  me { email role }
  customers(first: 3) {
    items { name tenants { name } }
    nextCursor
  }
}
`

// tenantExample is the query the tenant app's playground opens with.
const tenantExample = `# The playground runs operations with your tenant app session:
# press Run (Ctrl-Enter) to try this one.
query Example {
  masterRecords(master: "Building", pageSize: 5) { total rows { id slug tenantID } }
}
`

// playgroundCSP allows the page its own scripts and styles (GraphiQL sets
// inline styles) and requests to this host only.
const playgroundCSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// playground serves the page at the endpoint and its files under
// endpoint/assets/. signIn is "console" where the page signs in through
// the console's PKCE flow, "cookie" where a session cookie goes along.
type playground struct {
	page   []byte
	assets http.Handler
	prefix string
}

func newPlayground(endpoint, signIn, example string) *playground {
	prefix := endpoint + "/assets/"
	var buf bytes.Buffer
	err := playgroundTemplate.Execute(&buf, map[string]string{"Title": "GraphQL playground · GraphiQL", "Endpoint": endpoint,
		"Assets": strings.TrimSuffix(prefix, "/"), "SignIn": signIn, "Example": example})
	if err != nil {
		panic(err) // the template is embedded: a test catches it
	}
	files := http.FileServerFS(mergedFS{})
	return &playground{page: buf.Bytes(), prefix: prefix, assets: http.StripPrefix(prefix, files)}
}

// mergedFS serves the vendored assets and the page's own files from one directory.
type mergedFS struct{}

func (mergedFS) Open(name string) (fs.File, error) {
	if strings.Contains(name, "/") {
		return nil, fs.ErrNotExist
	}
	for _, dir := range []string{"playground/assets/", "playground/page/"} {
		if f, err := playgroundFiles.Open(dir + name); err == nil {
			return f, nil
		}
	}
	return nil, fs.ErrNotExist
}

// serves answers the page or one of its files; false when r asks for neither.
func (p *playground) serves(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet {
		return false
	}
	if strings.HasPrefix(r.URL.Path, p.prefix) {
		if r.URL.Path == p.prefix {
			http.NotFound(w, r)
			return true
		}
		w.Header().Set("Cache-Control", "public, max-age=300")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		p.assets.ServeHTTP(w, r)
		return true
	}
	if r.URL.RawQuery != "" || !strings.Contains(r.Header.Get("Accept"), "text/html") {
		return false
	}
	httpapi.PageHeaders(w.Header(), playgroundCSP)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(p.page)
	return true
}
