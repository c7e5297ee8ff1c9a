package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/evgrep/evgrep/internal/agent"
	"github.com/evgrep/evgrep/snapshot"
)

// scopeTree is a tree in which every file holds the name Foo as a call,
// so that every analysis finds something in every file it reads: a file
// left out of an answer is a file the analysis did not read. It has an
// ignored file (.ignore), a hidden folder, a nested folder, a Python and
// a text file and a UTF-16 file with a byte-order mark.
func scopeTree(t *testing.T) string {
	root := writeTree(t, map[string]string{
		".ignore":          "# Foo()\nign.go\n",
		"a.go":             "package p\n\nfunc Foo() {}\n\nfunc b() { Foo() }\n",
		"ign.go":           "package p\n\nfunc c() { Foo() }\n",
		".hidden/h.go":     "package h\n\nfunc d() { Foo() }\n",
		"sub/deep/d.go":    "package deep\n\nfunc e() { Foo() }\n",
		"sub/s.py":         "def Foo():\n    pass\n\nFoo()\n",
		"notes.txt":        "call Foo() here\n",
		"sub/deep/more.py": "import x\n\nFoo()\n",
	})
	var u []byte
	u = append(u, 0xFF, 0xFE)
	for _, r := range utf16.Encode([]rune("def g():\n    Foo()\n")) {
		u = append(u, byte(r), byte(r>>8))
	}
	if err := os.WriteFile(filepath.Join(root, "u16.py"), u, 0o644); err != nil {
		t.Fatal(err)
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	return root
}

// jsonPaths collects the values of every "path" and "file" key of the JSON
// documents in out (one per line, or one whole), leaving out the suggested
// next calls (their requests name paths too).
func jsonPaths(t *testing.T, out string) []string {
	t.Helper()
	seen := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if k == "next" {
					continue
				}
				if s, ok := x.(string); ok && (k == "path" || k == "file") {
					seen[filepath.ToSlash(strings.TrimPrefix(s, "./"))] = true
				}
				if k == "otherFiles" {
					for _, o := range x.([]any) {
						seen[o.(string)] = true
					}
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		walk(v)
	}
	var list []string
	for p := range seen {
		list = append(list, p)
	}
	sort.Strings(list)
	return list
}

// rgFiles is the reference's --files with the scope flags, sorted.
func rgFiles(t *testing.T, r refRun, flags []string) []string {
	t.Helper()
	args := append(append([]string{"--files"}, flags...), "--sort", "path")
	res, _ := runRG(t, r, "files "+strings.Join(flags, " "), r.root, args, "")
	var list []string
	for _, l := range strings.Split(strings.TrimSpace(res.stdout), "\n") {
		if l != "" {
			list = append(list, l)
		}
	}
	sort.Strings(list)
	return list
}

// TestAnalysesReadWhatRGFilesLists: for every analysis of the command
// line, the files it reads are the files `rg --files` lists with the same
// scope flags (ignore rules, hidden, globs, types, depth, -u), the UTF-16
// file included (each analysis decodes it as a search does). Structural
// search reads the files of its language only, as bytes: like ast-grep it
// does not transcode, so the UTF-16 file has no match.
func TestAnalysesReadWhatRGFilesLists(t *testing.T) {
	root := scopeTree(t)
	r := newRefRun(t, root, nil)
	flagSets := [][]string{
		{}, {"--no-ignore"}, {"--no-ignore-dot"}, {"--hidden"}, {"-u"}, {"-uu"}, {"-g", "*.go"}, {"-g", "!sub/**"},
		{"-t", "py"}, {"-T", "go"}, {"--max-depth", "1"}, {"--hidden", "--no-ignore", "-g", "!*.txt"},
	}
	analyses := []struct {
		name string
		args []string
		py   bool // reads the Python files only
	}{
		{"impact-symbol", []string{"--impact-symbol", "Foo", "--json"}, false},
		{"rank", []string{"--rank", "Foo", "--json", "-m", "100"}, false},
		{"terms", []string{"--terms", "Foo,Zzz", "--json"}, false},
		{"outline", []string{"--outline", "--json"}, false},
		{"structural", []string{"--ast", "Foo()", "--lang", "python", "--json"}, true},
	}
	for _, flags := range flagSets {
		want := rgFiles(t, r, flags)
		if len(want) == 0 {
			t.Fatalf("rg --files %v lists nothing", flags)
		}
		for _, an := range analyses {
			name := an.name + " " + strings.Join(flags, " ")
			t.Run(name, func(t *testing.T) {
				t.Setenv("XDG_STATE_HOME", t.TempDir())
				args := append(append(append([]string{}, an.args...), flags...), ".")
				got := runEvgrep(t, root, args, "")
				if got.code == 2 {
					t.Fatalf("evgrep %q: exit 2\n%s", args, got.stdout)
				}
				exp := want
				if an.py {
					exp = structuralFiles(want)
				}
				if files := jsonPaths(t, got.stdout); !slices.Equal(files, exp) {
					t.Errorf("evgrep %q read\n  %q\nrg --files %q lists\n  %q", args, files, flags, exp)
				}
			})
		}
	}
}

// TestAgentModesReadWhatRGFilesLists: the same for every agent mode that
// walks, with the request's scope fields (hidden, glob, exclude, paths)
// against rg --files with the flags they stand for.
func TestAgentModesReadWhatRGFilesLists(t *testing.T) {
	root := scopeTree(t)
	r := newRefRun(t, root, nil)
	scopes := []struct {
		fields string // request fields
		flags  []string
	}{
		{`"hidden":false`, nil},
		{`"hidden":true`, []string{"--hidden"}},
		{`"glob":["*.go"]`, []string{"--hidden", "-g", "*.go"}},
		{`"exclude":["sub/**"]`, []string{"--hidden", "-g", "!sub/**"}},
		{`"hidden":false,"paths":["sub","sub/deep"]`, []string{"sub"}},
	}
	modes := []struct {
		name, req string
		py        bool
	}{
		{"summary", `"pattern":"Foo","mode":"summary"`, false},
		{"terms", `"terms":["Foo","Zzz"]`, false},
		{"impact", `"mode":"impact","symbol":"Foo"`, false},
		{"rank", `"mode":"rank","query":"Foo","limit":30`, false},
		{"outline", `"mode":"outline"`, false},
		{"structural", `"mode":"structural","pattern":"Foo()","lang":"python"`, true},
	}
	for _, sc := range scopes {
		want := rgFiles(t, r, sc.flags)
		for _, m := range modes {
			t.Run(m.name+" "+sc.fields, func(t *testing.T) {
				req := "{" + m.req + "," + sc.fields + `,"path":` + quoteJSON(root) + "}"
				a := agent.HandleJSON(context.Background(), []byte(req), agent.Env{Cwd: root, Store: snapshot.NewMemoryStore()})
				if a.Failed {
					t.Fatalf("%s: %s", req, a.Text)
				}
				b, _ := json.Marshal(a.Details)
				exp := want
				if m.py {
					exp = structuralFiles(want)
				}
				if files := jsonPaths(t, string(b)); !slices.Equal(files, exp) {
					t.Errorf("%s read\n  %q\nrg --files %q lists\n  %q\n%s", req, files, sc.flags, exp, a.Text)
				}
			})
		}
	}
}

// structuralFiles are the files of list a Python structural search
// matches in: the Python files but the UTF-16 one.
func structuralFiles(list []string) []string {
	return slices.DeleteFunc(slices.Clone(list), func(p string) bool { return !strings.HasSuffix(p, ".py") || p == "u16.py" })
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
