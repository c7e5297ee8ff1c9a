package ignore

import (
	"errors"
	"strings"
	"testing"
)

func TestCompileLine(t *testing.T) {
	tests := []struct {
		line      string
		ok        bool
		actual    string
		whitelist bool
		onlyDir   bool
	}{
		{"# comment", false, "", false, false},
		{"", false, "", false, false},
		{"   \t", false, "", false, false},
		{" #x", true, "**/ #x", false, false},
		{`\#x`, true, "**/#x", false, false},
		{`\!x`, true, "**/!x", false, false},
		{"!x", true, "**/x", true, false},
		{"!", true, "**/", true, false},
		{"/x", true, "x", false, false},
		{"!/x", true, "x", true, false},
		{"x/", true, "**/x", false, true},
		{"/x/", true, "x", false, true},
		{"a/b", true, "a/b", false, false},
		{"a/b/", true, "a/b", false, true},
		{"**/a", true, "**/a", false, false},
		{"**", true, "**", false, false},
		{"a/**", true, "a/**/*", false, false},
		{"/**", true, "**", false, false},
		{"**/", true, "**", false, true},
		{"a/**/b", true, "a/**/b", false, false},
		{"x  ", true, "**/x", false, false},
		{"x\t\r", true, "**/x", false, false},
		{"x\u3000", true, "**/x", false, false},
		{`x\ `, true, `**/x\ `, false, false},
		{`x\  `, false, "", false, false}, // trimmed to `x\`: a dangling escape
		{"*.rs", true, "**/*.rs", false, false},
		{"{a,b}", true, "**/{a,b}", false, false},
		{"/", true, "", false, false},
		{"//", true, "", false, true},
	}
	for _, tc := range tests {
		lg, ok, err := compileLine(tc.line, gitignoreOptions(false))
		if ok != tc.ok {
			t.Errorf("compileLine(%q): ok = %v (err %v), want %v", tc.line, ok, err, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if lg.glob.String() != tc.actual || lg.whitelist != tc.whitelist || lg.onlyDir != tc.onlyDir {
			t.Errorf("compileLine(%q) = %q white=%v dir=%v, want %q white=%v dir=%v",
				tc.line, lg.glob.String(), lg.whitelist, lg.onlyDir, tc.actual, tc.whitelist, tc.onlyDir)
		}
	}
}

func TestGitignoreMatch(t *testing.T) {
	tests := []struct {
		name  string
		dir   string
		data  string
		ci    bool
		path  string
		isDir bool
		want  Match
	}{
		{"basename", ".", "foo\n", false, "a/b/foo", false, Ignore},
		{"basename not partial", ".", "foo\n", false, "a/xfoo", false, None},
		{"anchored", ".", "/foo\n", false, "foo", false, Ignore},
		{"anchored not deep", ".", "/foo\n", false, "a/foo", false, None},
		{"middle slash anchors", ".", "a/foo\n", false, "x/a/foo", false, None},
		{"middle slash", ".", "a/foo\n", false, "a/foo", false, Ignore},
		{"dir only on file", ".", "foo/\n", false, "foo", false, None},
		{"dir only on dir", ".", "foo/\n", false, "foo", true, Ignore},
		{"negation", ".", "*.rs\n!main.rs\n", false, "src/main.rs", false, Whitelist},
		{"last wins", ".", "!main.rs\n*.rs\n", false, "main.rs", false, Ignore},
		{"dir-only whitelist skipped for file", ".", "*.rs\n!main.rs/\n", false, "main.rs", false, Ignore},
		{"star no slash", ".", "a/*.rs\n", false, "a/b/c.rs", false, None},
		{"doublestar middle", ".", "a/**/c.rs\n", false, "a/b/x/c.rs", false, Ignore},
		{"doublestar suffix", ".", "a/**\n", false, "a/b", false, Ignore},
		{"doublestar suffix not dir itself", ".", "a/**\n", false, "a", true, None},
		{"bang whitelists all", ".", "!\n", false, "x/y", false, Whitelist},
		{"case sensitive", ".", "FOO\n", false, "foo", false, None},
		{"case insensitive", ".", "FOO\n", true, "foo", false, Ignore},
		{"case insensitive ascii only", ".", "É\n", true, "é", false, None},
		{"strip dot slash", ".", "/foo\n", false, "./foo", false, Ignore},
		{"strip root", "/r/d", "/foo\n", false, "/r/d/foo", false, Ignore},
		{"strip root dot slash", "./d", "/foo\n", false, "./d/foo", false, Ignore},
		{"strip root relative", "d", "/x/foo\n", false, "d/x/foo", false, Ignore},
		{"no strip for file name", "foo", "/foo\n", false, "foo", false, Ignore},
		{"byte prefix strip", "/r/d", "/foo\n", false, "/r/dfoo/x", false, None},
		{"byte prefix strip quirk", "/r/d", "/x/y\n", false, "/r/dx/y", false, Ignore},
		{"relative beneath absolute root", "/r/d", "/foo\n", false, "foo", false, Ignore},
		{"empty root strips slash", "", "/a/b\n", false, "/a/b", false, Ignore},
		{"dot root keeps path", ".", "/.x/y\n", false, ".x/y", false, Ignore},
		{"trailing dot fixed (rg 15)", ".", "foo.\n", false, "foo.", false, Ignore},
		{"escaped trailing slash (rg 15)", ".", "foo\\/\n", false, "foo", true, Ignore},
		{"escaped trailing slash is dir only", ".", "foo\\/\n", false, "foo", false, None},
		{"unclosed class is literal (rg 15)", ".", "[abc\n", false, "[abc", false, Ignore},
		{"unclosed class then more", ".", "a[b]c[d\n", false, "abc[d", false, Ignore},
		{"nested alternates", ".", "*.{a,{b,c}}\n", false, "x/y.c", false, Ignore},
		{"trailing dot anchored literal", ".", "/foo.\n", false, "foo.", false, Ignore},
		{"trailing dot case insensitive", ".", "foo.\n", true, "foo.", false, Ignore},
		{"class matches slash", ".", "a[!x]b\n", false, "a/b", false, Ignore},
		{"empty file", ".", "", false, "foo", false, None},
		{"comments only", ".", "# x\n\n", false, "x", false, None},
	}
	for _, tc := range tests {
		g, errs := NewGitignore(tc.dir, []byte(tc.data), tc.ci)
		if len(errs) > 0 {
			t.Errorf("%s: errors %v", tc.name, errs)
		}
		if got := g.Match(tc.path, tc.isDir); got != tc.want {
			t.Errorf("%s: NewGitignore(%q, %q).Match(%q, %v) = %v, want %v", tc.name, tc.dir, tc.data, tc.path, tc.isDir, got, tc.want)
		}
	}
}

func TestGitignoreReading(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		path    string
		want    Match
		len     int
		errLine []int
	}{
		{"crlf", "a\r\nb\r\n", "b", Ignore, 2, nil},
		{"cr kept without lf then trimmed", "a\r", "a", Ignore, 1, nil},
		{"no final newline", "a\nb", "b", Ignore, 2, nil},
		{"invalid utf8 stops", "a\n\xff\nb\n", "b", None, 1, nil},
		{"invalid utf8 keeps earlier", "a\n\xffx\nb\n", "a", Ignore, 1, nil},
		{"bom dropped (rg 15)", "\ufeffa\n", "a", Ignore, 1, nil},
		{"bom only on line 1", "a\n\ufeffb\n", "\ufeffb", Ignore, 2, nil},
		{"bad lines reported", "[a\nb\n{x\nc}\n", "b", Ignore, 2, []int{3, 4}},
		{"unclosed non-ascii is literal", "[中\n", "[中", Ignore, 1, nil},
		{"dangling after trim", "x\\  \n", "x", None, 0, []int{1}},
	}
	for _, tc := range tests {
		g, errs := NewGitignore(".", []byte(tc.data), false)
		if got := g.Match(tc.path, false); got != tc.want {
			t.Errorf("%s: Match(%q) = %v, want %v", tc.name, tc.path, got, tc.want)
		}
		if g.Len() != tc.len {
			t.Errorf("%s: Len() = %d, want %d", tc.name, g.Len(), tc.len)
		}
		var lines []int
		for _, e := range errs {
			var le *LineError
			if !errors.As(e, &le) {
				t.Errorf("%s: error %v is not a *LineError", tc.name, e)
				continue
			}
			lines = append(lines, le.Line)
		}
		if len(lines) != len(tc.errLine) {
			t.Errorf("%s: error lines %v, want %v", tc.name, lines, tc.errLine)
			continue
		}
		for i := range lines {
			if lines[i] != tc.errLine[i] {
				t.Errorf("%s: error lines %v, want %v", tc.name, lines, tc.errLine)
			}
		}
	}
}

func TestGitignoreErrorText(t *testing.T) {
	_, errs := NewGitignore(".", []byte("ok\n!/[a  \n!/[z-a]\n"), false)
	if len(errs) != 1 {
		t.Fatalf("errors = %v, want one", errs)
	}
	want := "line 3: error parsing glob '!/[z-a]': invalid range; 'z' > 'a'"
	if errs[0].Error() != want {
		t.Errorf("error = %q, want %q", errs[0].Error(), want)
	}
	var ge *GlobError
	if !errors.As(errs[0], &ge) || ge.Kind != ErrInvalidRange {
		t.Errorf("error does not unwrap to an invalid-range *GlobError")
	}
}

func TestGitignoreCounts(t *testing.T) {
	g, _ := NewGitignore("./sub", []byte("a\n!b\nc/\n# d\n"), false)
	if g.Len() != 3 || g.NumIgnores() != 2 || g.NumWhitelists() != 1 || g.Dir() != "sub" {
		t.Errorf("Len %d NumIgnores %d NumWhitelists %d Dir %q, want 3 2 1 \"sub\"", g.Len(), g.NumIgnores(), g.NumWhitelists(), g.Dir())
	}
	var nilGi *Gitignore
	if nilGi.Match("x", false) != None || nilGi.Len() != 0 {
		t.Errorf("a nil *Gitignore must match nothing")
	}
}

// A big, typical ignore file: every Match must stay allocation-free.
func TestGitignoreMatchDoesNotAllocate(t *testing.T) {
	var sb strings.Builder
	for _, l := range []string{"*.o", "*.rs", "/target", "node_modules/", "**/build/**", "!keep.o", "a*b", "docs/*.md", "*.tar.gz", "[Tt]emp*", "{x,y}.log"} {
		sb.WriteString(l + "\n")
	}
	for _, ci := range []bool{false, true} {
		g, errs := NewGitignore("/repo", []byte(sb.String()), ci)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		for _, p := range []string{"/repo/src/main.rs", "./src/x/keep.o", "docs/a.md", "deep/path/to/Temp.txt", "x.log", "nothing/here"} {
			if n := testing.AllocsPerRun(100, func() { g.Match(p, false) }); n != 0 {
				t.Errorf("ci=%v: Match(%q) allocates %v times", ci, p, n)
			}
		}
	}
}

// BenchmarkGitignoreMatch measures one Match against a typical ignore file.
func BenchmarkGitignoreMatch(b *testing.B) {
	data := []byte("*.o\n*.a\n*.so\n/target\nnode_modules/\n**/build/**\n!keep.o\n*.log\n.DS_Store\n" +
		"docs/_build/\n*.py[cod]\n__pycache__/\n*.tar.gz\n[Tt]emp*\n{x,y}.tmp\n/vendor/\ncoverage*\n")
	g, errs := NewGitignore("/repo", data, false)
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	paths := []string{"/repo/src/main.rs", "/repo/src/lib/x.o", "/repo/node_modules", "/repo/a/b/c/d/e.py",
		"/repo/docs/_build", "/repo/src/Temp1.go", "/repo/pkg/__pycache__", "/repo/deep/er/path/file.txt"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		p := paths[i%len(paths)]
		g.Match(p, i%3 == 0)
	}
}
