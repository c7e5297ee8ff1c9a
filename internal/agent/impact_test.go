//go:build cgo

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/snapshot"
)

// writeFiles writes files (path → content) under a new temporary root.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

var impactTree = map[string]string{
	"lib/shape.go":     "package lib\n\n// Area is the area.\nfunc Area(w, h int) int {\n\treturn w * h\n}\n\nconst (\n\tA = 1\n\tB = 2\n)\n",
	"app/main.go":      "package main\n\nimport \"x/lib\"\n\nfunc main() {\n\tprintln(lib.Area(2, 3), \"Area\")\n}\n",
	"app/main_test.go": "package main\n\nimport \"testing\"\n\nfunc TestArea(t *testing.T) {\n\tif lib.Area(1, 1) != 1 {\n\t\tt.Fatal()\n\t}\n}\n",
	"py/geo.py":        "def Area(w, h):\n    return w * h\n\nprint(Area(1, 2))\n",
	"notes.md":         "Area is documented here.\n",
	"rs/lib.rs":        "pub fn area() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() { super::Area(); }\n}\n",
	"web/a.ts":         "export function Area(): number { return 1 }\n",
	"web/a.test.ts":    "import { Area } from './a'\ntest('x', () => Area())\n",
}

// TestImpactAnswers: impact by path+line and by symbol, with roles, test
// files after the source occurrences, unclassified files without a parser,
// and the errors of the request forms.
func TestImpactAnswers(t *testing.T) {
	root := writeFiles(t, impactTree)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	tests := []struct {
		name    string
		req     string
		wantErr string
		// rows that must appear in this order in the text
		rows []string
	}{
		{name: "by line", req: `{"mode":"impact","path":"lib/shape.go","line":5}`, rows: []string{
			`evgrep impact of "Area" (function Area at lib/shape.go:3-6)`,
			"binding is not proven",
			"Roles: definition 3, call 2, comment 1, string 1, test 4, unclassified 1",
			"#1 app/main.go:6:14  call  println(lib.Area(2, 3), \"Area\")",
			"#2 app/main.go:6:27  string",
			"#3 lib/shape.go:3:4  comment",
			"#4 lib/shape.go:4:6  definition",
			"#5 notes.md:1:1  unclassified",
			"#6 py/geo.py:1:5  definition",
			"#7 py/geo.py:4:7  call",
			"#8 web/a.ts:1:17  definition",
			"#9 app/main_test.go:6:9  test/call",
			"#10 rs/lib.rs:6:21  test/call",
			"#11 web/a.test.ts:1:10  test/import",
			"#12 web/a.test.ts:2:17  test/call",
			`Test files mentioning "Area" (3): web/a.test.ts 2 (call 1, import 1), app/main_test.go 1 (call 1), rs/lib.rs 1 (call 1)`,
		}},
		{name: "by symbol", req: `{"mode":"impact","symbol":"lib.Area","paths":["py"]}`, rows: []string{
			`its last part "Area" is searched; the qualifier is not checked`,
			"2 occurrences in 1 files",
			"#1 py/geo.py:1:5  definition",
			"#2 py/geo.py:4:7  call",
		}},
		{name: "budget bites", req: `{"mode":"impact","symbol":"Area","parseBudget":1}`, rows: []string{
			"Parse budget: 1 files parsed; 6 more files with occurrences were not parsed",
			"#1 app/main.go:6:14  call",
			"#3 lib/shape.go:3:4  unclassified",
		}},
		{name: "group is ambiguous", req: `{"mode":"impact","path":"lib/shape.go","line":8}`, wantErr: "declares several names; name one as symbol: A, B"},
		{name: "group member on its line", req: `{"mode":"impact","path":"lib/shape.go","line":10}`, rows: []string{`(const B at lib/shape.go:8-11)`}},
		{name: "no declaration", req: `{"mode":"impact","path":"lib/shape.go","line":1}`, wantErr: "lies in no declaration"},
		{name: "no parser", req: `{"mode":"impact","path":"notes.md","line":1}`, wantErr: "no parser for this file type"},
		{name: "both forms", req: `{"mode":"impact","path":"lib/shape.go","line":4,"symbol":"Area"}`, wantErr: "symbol or path+line, not both"},
		{name: "neither", req: `{"mode":"impact"}`, wantErr: "needs path (a file) and line"},
		{name: "bad budget", req: `{"mode":"impact","symbol":"Area","parseBudget":2001}`, wantErr: "parseBudget 2001: expected 1-2000"},
		{name: "not a name", req: `{"mode":"impact","symbol":"a b"}`, wantErr: "expected one identifier"},
		{name: "pattern", req: `{"mode":"impact","symbol":"Area","pattern":"x"}`, wantErr: "mode impact takes"},
		{name: "rev", req: `{"mode":"impact","symbol":"Area","rev":"HEAD"}`, wantErr: "rev and changedSince do not apply to mode impact"},
		{name: "terms", req: `{"mode":"impact","symbol":"Area","terms":["a","b"]}`, wantErr: "mode does not apply"},
		{name: "symbol elsewhere", req: `{"symbol":"Area","pattern":"x"}`, wantErr: "belong to mode impact"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := HandleJSON(context.Background(), []byte(tt.req), env)
			if tt.wantErr != "" {
				if !a.Failed || !strings.Contains(a.Text, tt.wantErr) {
					t.Fatalf("want error %q, got:\n%s", tt.wantErr, a.Text)
				}
				return
			}
			if a.Failed {
				t.Fatalf("failed:\n%s", a.Text)
			}
			rest := a.Text
			for _, r := range tt.rows {
				i := strings.Index(rest, r)
				if i < 0 {
					t.Fatalf("missing (or out of order) %q in:\n%s", r, a.Text)
				}
				rest = rest[i+len(r):]
			}
		})
	}
}

// TestImpactCursorWalk: the pages of an impact never repeat or drop an
// item, each within 16 KiB of text and of details, and every count is of
// the stored items.
func TestImpactCursorWalk(t *testing.T) {
	files := map[string]string{}
	want := 0
	for i := 0; i < 40; i++ {
		var b strings.Builder
		b.WriteString("package p\n\n")
		fmt.Fprintf(&b, "func f%d() {\n", i)
		for j := 0; j < i%9+1; j++ {
			fmt.Fprintf(&b, "\tWidget(%d) // Widget %s\n", j, strings.Repeat("x", 150))
			want += 2
		}
		b.WriteString("}\n")
		files[fmt.Sprintf("d%02d/f.go", i)] = b.String()
	}
	root := writeFiles(t, files)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := HandleJSON(context.Background(), []byte(`{"mode":"impact","symbol":"Widget"}`), env)
	seen := map[int]bool{}
	pages := 0
	for {
		if a.Failed {
			t.Fatalf("failed:\n%s", a.Text)
		}
		pages++
		if len(a.Text) > responseBudget {
			t.Fatalf("page %d: text %d bytes", pages, len(a.Text))
		}
		dj, _ := json.Marshal(a.Details)
		if len(dj) > responseBudget {
			t.Fatalf("page %d: details %d bytes", pages, len(dj))
		}
		im := a.Details.Impact
		if im == nil || im.Occurrences != want || im.Roles["call"]+im.Roles["comment"] != want {
			t.Fatalf("page %d: counts %+v, want %d occurrences", pages, im, want)
		}
		if len(im.Items) == 0 || len(im.Items) > analysisPageItems {
			t.Fatalf("page %d has %d items", pages, len(im.Items))
		}
		for _, it := range im.Items {
			if seen[it.Index] {
				t.Fatalf("item %d repeated", it.Index)
			}
			seen[it.Index] = true
			if !strings.Contains(a.Text, fmt.Sprintf("#%d %s:%d:", it.Index, it.Path, it.Line)) {
				t.Fatalf("item %d not in the text", it.Index)
			}
		}
		if a.Details.Page.Done {
			break
		}
		a = HandleJSON(context.Background(), []byte(fmt.Sprintf(`{"cursor":%q}`, a.Details.Cursor)), env)
	}
	for i := 1; i <= want; i++ {
		if !seen[i] {
			t.Fatalf("item %d dropped (%d pages)", i, pages)
		}
	}
	if len(seen) != want || pages < 3 {
		t.Fatalf("%d items over %d pages, want %d over several", len(seen), pages, want)
	}
	// An impact cursor refuses what it cannot do.
	tok := HandleJSON(context.Background(), []byte(`{"mode":"impact","symbol":"Widget"}`), env).Details.Cursor
	if a := HandleJSON(context.Background(), []byte(fmt.Sprintf(`{"cursor":%q,"mode":"matches"}`, tok)), env); !a.Failed {
		t.Fatalf("matches mode on an impact cursor answered:\n%s", a.Text)
	}
}

// TestImpactLongPathsBounded: long paths in the file lists and the items
// keep every page's text and details within 16 KiB.
func TestImpactLongPathsBounded(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 25; i++ {
		p := fmt.Sprintf("%s/%s%02d/f.go", strings.Repeat("d", 200), strings.Repeat("e", 200), i)
		files[p] = "package p\n\nfunc Widget() { Widget(); Widget() }\n"
		files[fmt.Sprintf("%s/%s%02d/f_test.go", strings.Repeat("t", 200), strings.Repeat("u", 200), i)] = "package p\n\nfunc T() { Widget() }\n"
	}
	root := writeFiles(t, files)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := HandleJSON(context.Background(), []byte(`{"mode":"impact","symbol":"Widget"}`), env)
	total := 0
	for {
		if a.Failed {
			t.Fatalf("failed:\n%s", a.Text)
		}
		dj, _ := json.Marshal(a.Details)
		if len(a.Text) > responseBudget || len(dj) > responseBudget {
			t.Fatalf("text %d, details %d bytes", len(a.Text), len(dj))
		}
		total += len(a.Details.Impact.Items)
		if a.Details.Page.Done {
			break
		}
		a = HandleJSON(context.Background(), []byte(fmt.Sprintf(`{"cursor":%q}`, a.Details.Cursor)), env)
	}
	if total != 100 {
		t.Fatalf("%d items, want 100", total)
	}
}
