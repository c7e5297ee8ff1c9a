//go:build cgo

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/snapshot"
)

var navTree = map[string]string{
	"go.mod":                 "module example.com/m\n",
	"pkg/util/util.go":       "package util\n\nimport (\n\t\"fmt\"\n\t\"example.com/m/pkg/core\"\n\t\"github.com/x/y\"\n)\n\nfunc Helper() { fmt.Println(core.X) }\n",
	"pkg/util/util_test.go":  "package util\n\nimport \"testing\"\n\nfunc TestHelper(t *testing.T) { Helper() }\n",
	"pkg/util/other_test.go": "package util\n",
	"pkg/core/core.go":       "package core\n\nconst X = 1\n",
	"cmd/app/main.go":        "package main\n\nimport \"example.com/m/pkg/util\"\n\nfunc main() { util.Helper() }\n",
	"cmd/app/main_test.go":   "package main\n\nimport (\n\t\"testing\"\n\t\"example.com/m/pkg/util\"\n)\n\nfunc TestMain2(t *testing.T) { util.Helper() }\n",
	"py/pkg/__init__.py":     "",
	"py/pkg/geo.py":          "from . import shapes\nfrom .shapes import Circle\nimport os\n\ndef area(): return 1\n",
	"py/pkg/shapes.py":       "class Circle: pass\n",
	"py/tests/test_geo.py":   "from pkg.geo import area\n\ndef test_area(): assert area() == 1\n",
	"web/src/a.ts":           "import { b } from './b';\nimport lib from './lib';\nimport React from 'react';\nexport const a = b;\n",
	"web/src/b.ts":           "export const b = 1;\n",
	"web/src/lib/index.ts":   "export default 1;\n",
	"web/src/b.test.ts":      "import { b } from './b';\ntest('b', () => b);\n",
	"rs/Cargo.toml":          "[package]\nname = \"r\"\n",
	"rs/src/lib.rs":          "mod net;\nuse crate::net::tcp::Conn;\nuse std::io;\n",
	"rs/src/net/mod.rs":      "pub mod tcp;\n",
	"rs/src/net/tcp.rs":      "pub struct Conn;\n\n#[cfg(test)]\nmod tests {}\n",
}

// TestNavigation: imports resolved per language, importers, and test
// files with their evidence.
func TestNavigation(t *testing.T) {
	root := writeFiles(t, navTree)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	tests := []struct {
		name, req string
		rows      []string // in this order
		wantErr   string
	}{
		{"go imports and importers", `{"mode":"imports","path":"pkg/util/util.go"}`, []string{
			"imports 3 (workspace 1, std 1, external 1), imported by 2",
			"#1 pkg/util/util.go:4  imports  [std]  fmt",
			"#2 pkg/util/util.go:5  imports  [workspace]  example.com/m/pkg/core → pkg/core/",
			"#3 pkg/util/util.go:6  imports  [external]  github.com/x/y [another module]",
			"#4 cmd/app/main.go:3  imported-by  [import]  example.com/m/pkg/util",
			"#5 cmd/app/main_test.go:5  imported-by  [import]  example.com/m/pkg/util",
		}, ""},
		{"python", `{"mode":"imports","path":"py/pkg/geo.py"}`, []string{
			"imports 3 (workspace 2, external 1), imported by 1",
			"#1 py/pkg/geo.py:1  imports  [workspace]  . (shapes) → py/pkg/shapes.py",
			"#2 py/pkg/geo.py:2  imports  [workspace]  .shapes (Circle) → py/pkg/shapes.py",
			"#3 py/pkg/geo.py:3  imports  [external]  os",
			"#4 py/tests/test_geo.py:1  imported-by  [from]  pkg.geo",
		}, ""},
		{"ts relative and index", `{"mode":"imports","path":"web/src/a.ts"}`, []string{
			"#1 web/src/a.ts:1  imports  [workspace]  ./b → web/src/b.ts",
			"#2 web/src/a.ts:2  imports  [workspace]  ./lib → web/src/lib/index.ts",
			"#3 web/src/a.ts:3  imports  [external]  react [a package]",
		}, ""},
		{"ts importers", `{"mode":"imports","path":"web/src/b.ts"}`, []string{
			"imported by 2",
			"#1 web/src/a.ts:1  imported-by  [import]  ./b",
			"#2 web/src/b.test.ts:1  imported-by  [import]  ./b",
		}, ""},
		{"rust mod and crate paths", `{"mode":"imports","path":"rs/src/lib.rs"}`, []string{
			"#1 rs/src/lib.rs:1  imports  [workspace]  net → rs/src/net/mod.rs",
			"#2 rs/src/lib.rs:2  imports  [workspace]  crate::net::tcp::Conn → rs/src/net/tcp.rs",
			"#3 rs/src/lib.rs:3  imports  [external]  std::io [another crate]",
		}, ""},
		{"rust importers of tcp", `{"mode":"imports","path":"rs/src/net/tcp.rs"}`, []string{
			"imported by 2",
			"#1 rs/src/lib.rs:2  imported-by  [use]  crate::net::tcp::Conn",
			"#2 rs/src/net/mod.rs:1  imported-by  [mod]  tcp",
		}, ""},
		{"go tests", `{"mode":"tests","path":"pkg/util/util.go"}`, []string{
			"3 test files",
			"#1 pkg/util/util_test.go:5  name  [Go test file (_test.go)]  named for util.go (Go test file (_test.go)); mentions Helper ×1",
			"#2 pkg/util/other_test.go:1  package",
			"#3 cmd/app/main_test.go:8  imports-it  [Go test file (_test.go)]  imports it (example.com/m/pkg/util); mentions Helper ×1",
		}, ""},
		{"python tests", `{"mode":"tests","path":"py/pkg/geo.py"}`, []string{
			"#1 py/tests/test_geo.py:1  name  [Python test file (test_*.py or *_test.py)]  named for geo.py (Python test file (test_*.py or *_test.py)); imports it (pkg.geo); mentions area ×2",
		}, ""},
		{"ts tests", `{"mode":"tests","path":"web/src/b.ts"}`, []string{
			"#1 web/src/b.test.ts:1  name  [test file (*.test.ts)]  named for b.ts",
		}, ""},
		{"rust in-file tests", `{"mode":"tests","path":"rs/src/net/tcp.rs"}`, []string{
			"#1 rs/src/net/tcp.rs:3  in-file  [#[cfg(test)]]  the file holds its own test module",
		}, ""},
		{"folder", `{"mode":"imports","path":"pkg"}`, nil, "needs path to name a file"},
		{"no path", `{"mode":"tests"}`, nil, "needs path (a file)"},
		{"line", `{"mode":"tests","path":"pkg/util/util.go","line":3}`, nil, "takes path (a file), hidden and cursor only"},
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

// TestNavigationCursorWalk: the importers of a package imported by many
// files come in pages that never repeat or drop a link.
func TestNavigationCursorWalk(t *testing.T) {
	files := map[string]string{"go.mod": "module m\n", "lib/lib.go": "package lib\n"}
	const n = 95
	for i := 0; i < n; i++ {
		files[fmt.Sprintf("c%03d/c.go", i)] = fmt.Sprintf("package c%d\n\nimport _ \"m/lib\" // %s\n", i, strings.Repeat("y", 300))
	}
	root := writeFiles(t, files)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := HandleJSON(context.Background(), []byte(`{"mode":"imports","path":"lib/lib.go"}`), env)
	seen := map[int]bool{}
	pages := 0
	for {
		if a.Failed {
			t.Fatalf("failed:\n%s", a.Text)
		}
		pages++
		dj, _ := json.Marshal(a.Details)
		if len(a.Text) > responseBudget || len(dj) > responseBudget {
			t.Fatalf("page %d: text %d, details %d bytes", pages, len(a.Text), len(dj))
		}
		nav := a.Details.Navigation
		if nav == nil || nav.Groups["imported-by"] != n {
			t.Fatalf("page %d: %+v", pages, nav)
		}
		for _, it := range nav.Items {
			if seen[it.Index] {
				t.Fatalf("link %d repeated", it.Index)
			}
			seen[it.Index] = true
		}
		if a.Details.Page.Done {
			break
		}
		a = HandleJSON(context.Background(), []byte(fmt.Sprintf(`{"cursor":%q}`, a.Details.Cursor)), env)
	}
	for i := 1; i <= n; i++ {
		if !seen[i] {
			t.Fatalf("link %d dropped", i)
		}
	}
	if pages < 4 {
		t.Fatalf("%d pages", pages)
	}
}
