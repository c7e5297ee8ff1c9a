//go:build cgo

package syntax

import (
	"fmt"
	"strings"
	"testing"
)

// TestEnclosingLangs: the declaration that inspect shows for a line, in
// the later languages' fixtures and in a few sources of their own: extent
// (with attached comments), the container's header, the signature.
func TestEnclosingLangs(t *testing.T) {
	type want struct {
		kind, name  string
		start, end  int
		header      string // "kind name start-end" of Header, "" for none
		sigContains string
	}
	cases := []struct {
		file string // a fixture, or "name.ext" of src
		src  string
		line int
		want want
	}{
		{"deploy.sh", "", 12, want{"function", "log", 10, 13, "", "log()"}},
		{"deploy.sh", "", 29, want{"function", "helper", 28, 30, "", "helper()"}}, // nested: the innermost
		{"deploy.sh", "", 5, want{"const", "VERSION", 5, 5, "", `readonly VERSION="1.4.2"`}},
		{"redirect.sh", "f() {\n  echo hi\n} >/dev/null\n", 2, want{"function", "f", 1, 3, "", "f()"}},
		{"Inventory.cs", "", 34, want{"method", "Find", 31, 35, "class Inventory 20-21", "public Sku Find(string code)"}},
		{"Inventory.cs", "", 50, want{"method", "Slot", 50, 50, "struct Slot 47-48", "public Slot(int i)"}},
		{"Inventory.cs", "", 19, want{"class", "Inventory", 19, 52, "", "public class Inventory : IStore"}},
		{"Scoped.cs", "namespace A.B;\n\npublic class C\n{\n    public void M()\n    {\n    }\n}\n", 6, want{"method", "M", 5, 7, "class C 3-4", "public void M()"}},
		{"Cache.kt", "", 41, want{"method", "empty", 41, 41, "object Companion 40-40", "fun <V> empty(): Cache<V>"}},
		{"Cache.kt", "", 28, want{"method", "get", 26, 30, "class Cache 21-21", "override fun get(key: Key): V?"}},
		{"Player.swift", "", 55, want{"method", "describe", 54, 56, "extension Player 53-53", "public func describe() -> String"}},
		{"Player.swift", "", 38, want{"method", "play", 37, 39, "class Player 25-25", "public func play() throws"}},
		{"Ledger.scala", "", 22, want{"method", "next", 21, 24, "object Ledger 15-15", "private[ledger] def next(): Int"}},
		{"Ledger.scala", "", 33, want{"method", "total", 32, 33, "class Ledger 27-27", "def total: Money"}},
		{"Mailer.php", "", 61, want{"method", "send", 59, 62, "class Mailer 46-47", "public function send(Message $m): bool"}},
		{"Mailer.php", "", 16, want{"function", "format_address", 11, 17, "", "function format_address("}},
		{"queue.lua", "", 16, want{"method", "Queue:push", 13, 19, "", "function Queue:push(v)"}},
		{"nested.lua", "function a()\n  local function b()\n    x()\n  end\n  b()\nend\n", 3, want{"function", "b", 2, 4, "", "local function b()"}},
		{"theme.css", "", 19, want{"rule", ".button", 18, 20, "at-rule @media (max-width: 600px) 17-17", ".button"}},
		{"theme.css", "", 4, want{"var", "--accent", 4, 4, "rule :root 3-3", "--accent: #0a6;"}},
		{"page.html", "", 14, want{"element", "nav#menu", 13, 15, "element header#top 12-12", `<nav id="menu">`}},
		{"page.html", "", 28, want{"script", "", 27, 29, "", "<script>"}},
		{"deploy.yaml", "", 14, want{"key", "image", 14, 14, "key containers 12-12", `image: "web:1.4"`}},
		{"deploy.yaml", "", 18, want{"key", "apiVersion", 18, 19, "", "apiVersion: v1"}}, // the document's comment
		{"nested.yaml", "spec:\n  # how many\n  replicas: 3\n  image: x\n", 2, want{"key", "replicas", 2, 3, "key spec 1-1", "replicas: 3"}},
		{"deploy.yaml", "", 16, want{"key", "containerPort", 16, 16, "key ports 15-15", "containerPort: 8080"}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s:%d", c.file, c.line), func(t *testing.T) {
			src := []byte(c.src)
			if c.src == "" {
				src = readFixture(t, c.file)
			}
			lang, ok := Detect(c.file, src)
			if !ok {
				t.Fatalf("no language for %s", c.file)
			}
			d, err := Enclosing(lang, src, c.line)
			if err != nil {
				t.Fatalf("Enclosing: %v", err)
			}
			if d.Kind != c.want.kind || d.Name != c.want.name || d.StartLine != c.want.start || d.EndLine != c.want.end {
				t.Errorf("got %s %q %d-%d, want %s %q %d-%d", d.Kind, d.Name, d.StartLine, d.EndLine,
					c.want.kind, c.want.name, c.want.start, c.want.end)
			}
			var h string
			if d.Header != nil {
				h = fmt.Sprintf("%s %s %d-%d", d.Header.Kind, d.Header.Name, d.Header.StartLine, d.Header.EndLine)
			}
			if h != c.want.header {
				t.Errorf("header %q, want %q", h, c.want.header)
			}
			if !strings.Contains(d.Signature, c.want.sigContains) {
				t.Errorf("signature %q lacks %q", d.Signature, c.want.sigContains)
			}
		})
	}
}
