package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// repoRoot is the repository's top directory, seen from the server package.
const repoRoot = ".."

var (
	// ruleID is a requirement of docs/requirements.md: R, the part and
	// section, a dash and a kebab-case name (R4.1-rc2, R1-gateway).
	ruleID = `R[0-9]+(?:\.[0-9]+)?-[a-z0-9]+(?:-[a-z0-9]+)*`
	// decisionID is a decision of docs/decisions.md (D-lockout).
	decisionID = `D-[a-z0-9]+(?:-[a-z0-9]+)*`

	specID       = regexp.MustCompile(`^(` + ruleID + `|` + decisionID + `)(?: \([^()]+\))?$`)
	specLine     = regexp.MustCompile(`^\s*// spec: (.*)$`)
	specLike     = regexp.MustCompile(`(?i)^\s*//\s*spec(?:\s*:|\s+(?:R[0-9]|D-))`)
	ruleDef      = regexp.MustCompile(`^- \*\*(` + ruleID + `)\*\* — \S`)
	ruleDefLike  = regexp.MustCompile(`^\s*[-*] \*\*R[0-9]`)
	anyRuleID    = regexp.MustCompile(`\b` + ruleID + `\b`)
	anyDecision  = regexp.MustCompile(`\b` + decisionID + `\b`)
	heading      = regexp.MustCompile(`^#{1,6} `)
	boldSpan     = regexp.MustCompile(`\*\*([^*]+)\*\*`)
	boldLeadList = regexp.MustCompile(`^\s*- \*\*[^*]+\*\*:? \(([^()]+)\)`)
	onlyDecision = regexp.MustCompile(`^` + decisionID + `$`)
)

// TestDocsSpecTagsAreDefined holds the `// spec:` tags of the tests to
// their definitions: every R-ID a tag names is a requirement of
// docs/requirements.md and every D-ID a decision of docs/decisions.md, so a
// reader can look each tag up. A tag is a comment line `// spec: ID, ID`
// (a line ending with a comma continues on the next comment line); a
// comment that looks like a tag but is not one is an error, since no
// search would find it.
func TestDocsSpecTagsAreDefined(t *testing.T) {
	t.Parallel()
	rules := requirementDefs(t)
	decisions := decisionDefs(t)
	tags := specTags(t)
	if len(tags) < 100 {
		t.Fatalf("found only %d spec tags; is the tag pattern still right?", len(tags))
	}
	for _, tg := range tags {
		switch {
		case strings.HasPrefix(tg.id, "R") && !rules[tg.id]:
			t.Errorf("%s: spec tag %s is not a requirement of docs/requirements.md", tg.at, tg.id)
		case strings.HasPrefix(tg.id, "D-") && !decisions[tg.id]:
			t.Errorf("%s: spec tag %s is not defined in docs/decisions.md (a heading or a bold lead naming it)", tg.at, tg.id)
		}
	}
}

// TestDocsRulesAreTested holds every requirement of docs/requirements.md to
// at least one test that names it in a `// spec:` tag. A mention in a plain
// comment does not count.
func TestDocsRulesAreTested(t *testing.T) {
	t.Parallel()
	named := map[string]bool{}
	for _, tg := range specTags(t) {
		named[tg.id] = true
	}
	rules := requirementDefs(t)
	if len(rules) < 50 {
		t.Fatalf("docs/requirements.md defines only %d requirements; is the definition pattern still right?", len(rules))
	}
	for id := range rules {
		if !named[id] {
			t.Errorf("requirement %s of docs/requirements.md is named by no `// spec:` tag of a test", id)
		}
	}
}

// TestDocsIDsAreDefined holds every R-ID and D-ID the documentation and the
// code mention (comments, schema descriptions, migrations, web sources) to
// its definition, so no page or comment points at a requirement or decision
// that is not written down.
func TestDocsIDsAreDefined(t *testing.T) {
	t.Parallel()
	rules := requirementDefs(t)
	decisions := decisionDefs(t)
	undefined := func(f string) []string {
		var found []string
		eachLine(t, f, func(n int, line string) {
			for _, loc := range anyRuleID.FindAllStringIndex(line, -1) {
				if id := line[loc[0]:loc[1]]; !wildcard(line, loc[1]) && !rules[id] {
					found = append(found, fmt.Sprintf("%s:%d names %s, which docs/requirements.md does not define", f, n, id))
				}
			}
			for _, loc := range anyDecision.FindAllStringIndex(line, -1) {
				if id := line[loc[0]:loc[1]]; !wildcard(line, loc[1]) && !decisions[id] {
					found = append(found, fmt.Sprintf("%s:%d names %s, which docs/decisions.md does not define", f, n, id))
				}
			}
		})
		return found
	}
	var docs, code []string
	for _, f := range trackedFiles(t) {
		switch {
		case isDoc(f):
			docs = append(docs, f)
		case idBearing(f):
			code = append(code, f)
		}
	}
	t.Run("Docs", func(t *testing.T) {
		for _, f := range docs {
			for _, p := range undefined(f) {
				t.Error(p)
			}
		}
	})
	t.Run("Code", func(t *testing.T) {
		for _, f := range code {
			for _, p := range undefined(f) {
				t.Error(p)
			}
		}
	})
}

// TestDocsPathsExist holds README.md and docs/*.md to the tree: every
// local Markdown link, every backticked repository path (one starting with
// a top-level directory: graph/, schema/, server/, internal/, migrations/,
// docs/, .ci/) and every such path with a file extension in the text names
// a tracked file or directory. Globs (`schema/*.graphqls`), placeholders
// (`internal/store/<noun>.go`, `migrations/…`) and brace lists must match
// something, a Go symbol (`internal/data.Service`) its package's directory.
func TestDocsPathsExist(t *testing.T) {
	t.Parallel()
	tree := trackedTree(t)
	docs := docFiles(t)
	checked := 0
	for _, doc := range docs {
		eachLine(t, doc, func(n int, line string) {
			for _, target := range markdownLinks(line) {
				checked++
				p := path.Clean(path.Join(path.Dir(doc), target))
				if strings.HasPrefix(p, "../") || p == ".." {
					t.Errorf("%s:%d links to %s, outside the repository", doc, n, target)
				} else if !tree.has(p) {
					t.Errorf("%s:%d links to %s, which does not exist (%s)", doc, n, target, p)
				}
			}
			for _, p := range namedPaths(line) {
				checked++
				if !tree.matches(p) {
					t.Errorf("%s:%d names %s, which is not in the repository", doc, n, p)
				}
			}
		})
	}
	if checked < 50 {
		t.Fatalf("checked only %d paths; are the path patterns still right?", checked)
	}
}

// TestDocsNamedTestsExist holds README.md and docs/*.md to the suite: every
// test or benchmark a page names (as the one that shows a claim) is a
// function of some _test.go file, so a renamed or removed test cannot leave
// a page vouching for nothing.
func TestDocsNamedTestsExist(t *testing.T) {
	t.Parallel()
	funcs := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz)\w+)\(`)
	for _, f := range repoFiles(t) {
		if strings.HasSuffix(f, "_test.go") {
			for _, m := range decl.FindAllSubmatch(readFile(t, f), -1) {
				funcs[string(m[1])] = true
			}
		}
	}
	named := regexp.MustCompile(`\b(?:Test|Benchmark|Fuzz)[A-Z][A-Za-z0-9_]*`)
	checked := 0
	for _, doc := range docFiles(t) {
		eachLine(t, doc, func(n int, line string) {
			for _, loc := range named.FindAllStringIndex(line, -1) {
				if wildcard(line, loc[1]) || strings.HasPrefix(line[loc[1]:], "…") {
					continue
				}
				checked++
				if name := line[loc[0]:loc[1]]; !funcs[name] {
					t.Errorf("%s:%d names %s, which is no test function of the repository", doc, n, name)
				}
			}
		})
	}
	if checked < 50 {
		t.Fatalf("checked only %d test names; is the pattern still right?", checked)
	}
}

// TestDocsNameNothingOutside holds every file of the repository (but
// installed packages and builds) to the repository: no path into a
// machine's folders, no `../` that climbs above the repository's top, no
// name of a document the repository does not hold (the specification, its
// rule list, the design and style notes, by file name or by section, see
// outsideDoc), since a reader of a clone can open none of them. The
// requirements are docs/requirements.md, the decisions docs/decisions.md.
// The documentation also names its own files by repository paths only.
func TestDocsNameNothingOutside(t *testing.T) {
	t.Parallel()
	var docs, other []string
	for _, f := range trackedFiles(t) {
		if isDoc(f) {
			docs = append(docs, f)
		} else {
			other = append(other, f)
		}
	}
	t.Run("Docs", func(t *testing.T) {
		for _, f := range docs {
			for _, p := range outsideRefs(t, f) {
				t.Error(p)
			}
		}
	})
	t.Run("Code", func(t *testing.T) {
		for _, f := range other {
			for _, p := range outsideRefs(t, f) {
				t.Error(p)
			}
		}
	})
}

// outsideDoc names a document outside the repository: a file name (the
// word, then ".md"), or a section of one (the word, then a section number,
// "section", "part", or a requirement's or decision's ID), also when a
// comment breaks the line between the two. The words inside identifiers
// (SPEC_X, specRows) and on their own do not count.
var (
	outsideDoc   = regexp.MustCompile(`^(?:SPEC|DESIGN|RULES|STYLE)(?:\.md\b|(?:\s|//|#|--|\*)+(?:[0-9]+(?:\.[0-9]+)*|section\b|part\b|D-[a-z0-9-]+|R[0-9][0-9.]*-[a-z0-9-]+))`)
	outsideWords = []string{"SPEC", "DESIGN", "RULES", "STYLE"}
)

// machineDirs are the top folders of a machine's home and work directories;
// a path into one ("/" + name + "/") that starts a word is no URL's path.
var machineDirs = []string{"work", "home", "root", "Users"}

// outsideRefs lists the places of file f that name something outside the
// repository, as "file:line: what".
func outsideRefs(t *testing.T, f string) []string {
	t.Helper()
	b := readFile(t, f)
	if bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0 {
		return nil // an image or a spreadsheet
	}
	var found []string
	report := func(off int, what string) {
		found = append(found, fmt.Sprintf("%s:%d: %s", f, 1+bytes.Count(b[:off], []byte("\n")), what))
	}
	for _, word := range outsideWords {
		for _, at := range indexes(b, word) {
			if at > 0 && wordByte(b[at-1]) {
				continue
			}
			if m := outsideDoc.Find(b[at:min(len(b), at+120)]); m != nil {
				report(at, fmt.Sprintf("names a document outside the repository: %q", strings.Join(strings.Fields(string(m)), " ")))
			}
		}
	}
	for _, name := range machineDirs {
		dir := "/" + name + "/"
		for _, at := range indexes(b, dir) {
			if at == 0 || strings.IndexByte(" \t\n\"'`(=:", b[at-1]) >= 0 {
				report(at, fmt.Sprintf("names a folder of a machine: %q", dir))
			}
		}
	}
	text := b
	if isDoc(f) { // links are TestDocsPathsExist's; keep the offsets
		text = markdownLink.ReplaceAllFunc(b, func(l []byte) []byte { return bytes.Repeat([]byte(" "), len(l)) })
	}
	depth := strings.Count(f, "/")
	for off := 0; ; {
		i := bytes.Index(text[off:], []byte("../"))
		if i < 0 {
			break
		}
		at := off + i
		n := 0
		for bytes.HasPrefix(text[at+3*n:], []byte("../")) {
			n++
		}
		off = at + 3*n
		if at > 0 && (wordByte(text[at-1]) || strings.IndexByte("./~-", text[at-1]) >= 0) {
			continue // inside a name, or "x/../"
		}
		up := strings.Repeat("../", n)
		switch {
		case n > depth:
			report(at, fmt.Sprintf("climbs above the repository: %q", up))
		case isDoc(f):
			report(at, fmt.Sprintf("names a path relative to a parent folder (%q); name it from the repository's top", up))
		}
	}
	return found
}

// indexes are the offsets of every occurrence of s in b.
func indexes(b []byte, s string) []int {
	var at []int
	for off := 0; ; {
		i := bytes.Index(b[off:], []byte(s))
		if i < 0 {
			return at
		}
		at = append(at, off+i)
		off += i + len(s)
	}
}

// wordByte reports whether c can be part of an identifier.
func wordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// tag is one ID of a `// spec:` tag and where it is.
type tag struct{ id, at string }

// specTags reads every `// spec:` tag of the module's tests.
func specTags(t *testing.T) []tag {
	t.Helper()
	var tags []tag
	err := filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != repoRoot && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(repoRoot, p)
		rel = filepath.ToSlash(rel)
		eachLine(t, rel, func(n int, line string) {
			at := fmt.Sprintf("%s:%d", rel, n)
			m := specLine.FindStringSubmatch(line)
			if m == nil {
				if specLike.MatchString(line) {
					t.Errorf("%s: %q looks like a spec tag but is not `// spec: ID, ID`", at, strings.TrimSpace(line))
				}
				return
			}
			// Every ID sits on a `// spec:` line: a list that goes on
			// past the line's end is continued by another `// spec:` line,
			// never by a plain comment line (which grep would not find).
			list := strings.TrimSpace(m[1])
			if strings.HasSuffix(list, ",") {
				t.Errorf("%s: a spec tag ends with a comma; continue it on a line of its own that starts with `// spec:`", at)
			}
			for _, item := range strings.Split(strings.TrimSuffix(list, ","), ",") {
				item = strings.TrimSpace(item)
				m := specID.FindStringSubmatch(item)
				if m == nil {
					t.Errorf("%s: %q in a spec tag is neither an R- nor a D- ID", at, item)
					continue
				}
				tags = append(tags, tag{m[1], at})
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tags
}

// requirementDefs reads the requirements docs/requirements.md defines, one
// per line `- **R4.1-rc2** — …`; each is defined once.
func requirementDefs(t *testing.T) map[string]bool {
	t.Helper()
	defs := map[string]bool{}
	eachLine(t, "docs/requirements.md", func(n int, line string) {
		m := ruleDef.FindStringSubmatch(line)
		if m == nil {
			if ruleDefLike.MatchString(line) {
				t.Errorf("docs/requirements.md:%d: %q looks like a requirement but is not `- **R…** — text`", n, line)
			}
			return
		}
		if defs[m[1]] {
			t.Errorf("docs/requirements.md:%d defines %s a second time", n, m[1])
		}
		defs[m[1]] = true
	})
	return defs
}

// decisionDefs reads the decisions docs/decisions.md defines: a D-ID in a
// heading, in a bold span, or in the parenthesis right after an item's bold
// lead (`- **Lockout** (D-lockout): …`).
func decisionDefs(t *testing.T) map[string]bool {
	t.Helper()
	defs := map[string]bool{}
	eachLine(t, "docs/decisions.md", func(n int, line string) {
		var spans []string
		if heading.MatchString(line) {
			spans = append(spans, line)
		}
		for _, m := range boldSpan.FindAllStringSubmatch(line, -1) {
			spans = append(spans, m[1])
		}
		for _, s := range spans {
			for _, id := range anyDecision.FindAllString(s, -1) {
				defs[id] = true
			}
		}
		if m := boldLeadList.FindStringSubmatch(line); m != nil {
			for _, item := range strings.Split(m[1], ",") {
				if item = strings.TrimSpace(item); onlyDecision.MatchString(item) {
					defs[item] = true
				}
			}
		}
	})
	if len(defs) < 20 {
		t.Fatalf("docs/decisions.md defines only %d decisions; is the definition pattern still right?", len(defs))
	}
	return defs
}

// wildcard reports whether an ID ending at i stands for a family
// ("R5.4-*", "D-console-*"), which names no single definition.
func wildcard(line string, i int) bool {
	return strings.HasPrefix(line[i:], "-*") || strings.HasPrefix(line[i:], "*")
}

// idBearing reports whether file f is text that may name requirements and
// decisions: documentation, Go, SQL, the schema, configuration and the
// hand-written web sources (not vendored or built bundles).
func idBearing(f string) bool {
	if strings.HasPrefix(f, "graph/playground/assets/") || strings.HasSuffix(f, ".min.js") {
		return false
	}
	switch path.Ext(f) {
	case ".md", ".go", ".sql", ".graphqls", ".graphql", ".yml", ".ts", ".tsx", ".js", ".html", ".csv":
		return true
	}
	return f == ".ci/run"
}

// isDoc reports whether f is one of the repository's Markdown documents.
func isDoc(f string) bool { return strings.HasSuffix(f, ".md") }

// docFiles are README.md and docs/*.md.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md"}
	for _, d := range docs {
		files = append(files, "docs/"+filepath.Base(d))
	}
	return files
}

// trackedFiles lists the repository's files (git ls-files, with the new
// files git does not ignore) but installed packages and builds.
func trackedFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, f := range repoFiles(t) {
		parts := strings.Split(f, "/")
		if slices.Contains(parts, "node_modules") || slices.Contains(parts[:len(parts)-1], "dist") {
			continue
		}
		files = append(files, f)
	}
	return files
}

// repoFiles lists the files of the work tree that are, or are about to be,
// the repository's: tracked and not deleted, or new and not ignored.
func repoFiles(t *testing.T) []string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--deduplicate")
	cmd.Dir = repoRoot
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v (these checks read the repository's files)", err)
	}
	var files []string
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if f == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(repoRoot, filepath.FromSlash(f))); err != nil {
			continue // deleted in the work tree
		}
		files = append(files, f)
	}
	return files
}

// tree is the set of the repository's files and their directories.
type tree map[string]bool

func trackedTree(t *testing.T) tree {
	t.Helper()
	tr := tree{}
	for _, f := range repoFiles(t) {
		for p := f; p != "." && p != "/" && p != ""; p = path.Dir(p) {
			tr[p] = true
		}
	}
	return tr
}

func (tr tree) has(p string) bool { return tr[strings.TrimSuffix(p, "/")] }

// matches reports whether a path as a document writes it names something
// of the tree: a file or directory, a glob, a placeholder, a brace list or
// a package's symbol.
func (tr tree) matches(p string) bool {
	if open := strings.Index(p, "{"); open >= 0 {
		if end := strings.Index(p[open:], "}"); end > 0 {
			for _, alt := range strings.Split(p[open+1:open+end], ",") {
				if !tr.matches(p[:open] + alt + p[open+end+1:]) {
					return false
				}
			}
			return true
		}
	}
	p = strings.TrimSuffix(strings.TrimPrefix(p, "./"), "/")
	if tr.has(p) {
		return true
	}
	if dir, ok := cutSymbol(p); ok && tr.has(dir) {
		return true
	}
	if !placeholder.MatchString(p) {
		return false
	}
	pattern := placeholder.ReplaceAllString(p, "*")
	for f := range tr {
		if ok, _ := path.Match(pattern, f); ok {
			return true
		}
	}
	return false
}

// placeholder is what a document writes for "any name": <noun>, … and *.
var placeholder = regexp.MustCompile(`<[a-z-]+>|…|\*`)

// cutSymbol cuts the exported name off "internal/data.Service" and
// returns the package directory.
func cutSymbol(p string) (dir string, ok bool) {
	i := strings.LastIndex(p, ".")
	if i < 0 || strings.Contains(p[i:], "/") {
		return "", false
	}
	if sym := p[i+1:]; sym == "" || sym[0] < 'A' || sym[0] > 'Z' {
		return "", false
	}
	return p[:i], true
}

var (
	markdownLink = regexp.MustCompile(`\]\(([^()\s]+)(?:\s+"[^"]*")?\)`)
	codeSpan     = regexp.MustCompile("`([^`\\s]+)`")
	topDir       = `(?:graph|schema|server|internal|migrations|docs|\.ci)`
	repoPathSpan = regexp.MustCompile(`^(?:\./)?` + topDir + `(?:/|$)`)
	repoPathText = regexp.MustCompile(`(?:^|[\s(\[,;"'=@])((?:\./)?` + topDir + `/[A-Za-z0-9_./-]*\.(?:go|md|sql|graphqls|graphql|csv|json|mjs|js|ts|tsx|yml|yaml|html|css|xlsx|png))\b`)
)

// markdownLinks are the local targets of a line's Markdown links, without
// their #fragment.
func markdownLinks(line string) []string {
	var targets []string
	for _, m := range markdownLink.FindAllStringSubmatch(line, -1) {
		target, _, _ := strings.Cut(m[1], "#")
		if target == "" || strings.Contains(target, ":") {
			continue // an anchor on the page, or a URL
		}
		targets = append(targets, target)
	}
	return targets
}

// namedPaths are the repository paths a line names: backticked ones, and
// ones with a file extension in the text.
func namedPaths(line string) []string {
	var paths []string
	for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
		if repoPathSpan.MatchString(m[1]) {
			paths = append(paths, m[1])
		}
	}
	text := codeSpan.ReplaceAllString(markdownLink.ReplaceAllString(line, ""), "")
	for _, m := range repoPathText.FindAllStringSubmatch(text, -1) {
		paths = append(paths, strings.TrimSuffix(m[1], "."))
	}
	return paths
}

// readFile reads the repository file f.
func readFile(t *testing.T, f string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(f)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// eachLine calls fn with each line of the repository file f, numbered from 1.
func eachLine(t *testing.T, f string, fn func(n int, line string)) {
	t.Helper()
	b := readFile(t, f)
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), len(b)+1)
	for n := 1; sc.Scan(); n++ {
		fn(n, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", f, err)
	}
}
