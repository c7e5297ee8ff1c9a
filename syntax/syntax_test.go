//go:build cgo

package syntax

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(fixtureDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestEnclosing checks hand-verified answers for the rules of issue 6.
func TestEnclosing(t *testing.T) {
	type want struct {
		kind, name  string
		start, end  int
		header      string // "kind name start-end" of Header, "" for none
		sigContains string
	}
	cases := []struct {
		file string
		line int
		want want
	}{
		// Go: doc comments included, const/var groups whole, generics,
		// interface members with their interface as header.
		{"server.go", 13, want{"const", "MaxBody, MaxHeaders, defaultName", 10, 16, "", "const ("}},
		{"server.go", 10, want{"const", "MaxBody, MaxHeaders, defaultName", 10, 16, "", ""}},
		{"server.go", 22, want{"var", "mu, counter", 21, 24, "", "var ("}},
		{"server.go", 29, want{"method", "Serve", 28, 29, "interface Handler 27-27", "Serve(w http.ResponseWriter"}},
		{"server.go", 41, want{"struct", "Pair", 40, 44, "type Pair, ID 39-39", "Pair[K comparable, V any] struct"}},
		{"server.go", 54, want{"method", "Handle", 53, 60, "", "func (s *Server) Handle(path string, h Handler)"}},
		{"server.go", 76, want{"function", "Map", 73, 80, "", "func Map[T, U any](xs []T, f func(T) U) []U"}},
		{"server.go", 89, want{"method", "Close", 82, 93, "", ""}}, // inside a closure: the method
		// Python: decorators and comments included, methods with their
		// class line, nested classes (smallest wins), nested functions.
		{"inventory.py", 22, want{"function", "price_with_tax", 21, 24, "", "def price_with_tax(price: float, rate: float = 0.2) -> float:"}},
		{"inventory.py", 27, want{"class", "Item", 27, 49, "", "class Item:"}},
		{"inventory.py", 43, want{"method", "total", 42, 44, "class Item 29-29", "def total(self) -> float:"}},
		{"inventory.py", 40, want{"class", "Options", 39, 40, "class Meta 36-36", ""}},
		{"inventory.py", 37, want{"class", "Meta", 36, 40, "class Item 29-29", ""}},
		{"inventory.py", 59, want{"function", "apply", 58, 59, "", "def apply(v):"}},
		{"inventory.py", 64, want{"method", "fetch", 63, 65, "class Box 52-52", "async def fetch"}},
		{"inventory.py", 11, want{"const", "MAX_ITEMS", 11, 11, "", "MAX_ITEMS = 1000"}},
		// Rust: doc comments and attributes included, methods with their
		// impl header (a multi-line one with a where clause), trait impls.
		{"cache.rs", 60, want{"method", "get", 57, 66, "impl Cache<K, V> 47-51", "pub fn get(&mut self, key: &K) -> Result<V>"}},
		{"cache.rs", 81, want{"method", "fmt", 79, 84, "impl fmt::Display for CacheError 78-78", ""}},
		{"cache.rs", 13, want{"struct", "Entry", 11, 16, "", "pub struct Entry<K, V>"}},
		{"cache.rs", 31, want{"method", "victim", 30, 31, "trait Evict 29-29", "fn victim(&self) -> Option<usize>;"}},
		{"cache.rs", 7, want{"const", "MAX_ENTRIES", 6, 7, "", ""}},
		{"cache.rs", 103, want{"function", "insert_then_get", 101, 106, "module tests 98-98", ""}},
		{"cache.rs", 89, want{"macro", "square", 87, 91, "", ""}},
		// TypeScript: exported forms, decorators, arrow functions assigned to
		// const, class fields holding arrows, namespaces, export default.
		{"store.ts", 33, want{"function", "debounce", 29, 38, "", "export const debounce = <F extends"}},
		{"store.ts", 40, want{"function", "sleep", 40, 40, "", "const sleep = async (ms: number) =>"}},
		{"store.ts", 46, want{"class", "Store", 46, 78, "", "export class Store<T extends StoreEvent> extends EventEmitter"}},
		{"store.ts", 58, want{"method", "append", 56, 60, "class Store 47-47", "append(ev: T): void"}},
		{"store.ts", 63, want{"method", "onAppend", 62, 64, "class Store 47-47", ""}},
		{"store.ts", 12, want{"method", "apply", 11, 12, "interface StoreEvent 8-8", ""}},
		{"store.ts", 23, want{"function", "clamp", 22, 27, "", ""}},
		{"store.ts", 90, want{"function", "encode", 89, 91, "namespace Codec 88-88", ""}},
		{"store.ts", 95, want{"function", "createStore", 94, 96, "", "export default function createStore"}},
		{"store.ts", 81, want{"method", "project", 81, 81, "class Projection 80-80", ""}},
		{"widgets.js", 19, want{"function", "format", 18, 20, "", "const format = function (x)"}},
		{"widgets.js", 30, want{"method", "draw", 27, 31, "class Widget 22-22", ""}}, // a one-line local arrow does not win
		{"widgets.js", 50, want{"method", "draw", 49, 51, "class default 48-48", ""}},
		{"Widget.tsx", 12, want{"function", "Button", 8, 16, "", "export const Button = ({ label, onClick }: Props) =>"}},
		// Java: annotations and Javadoc, nested classes, interface default
		// methods, enum bodies.
		{"Registry.java", 28, want{"method", "add", 25, 32, "class Registry 11-11", "public void add(T item)"}},
		{"Registry.java", 48, want{"method", "weight", 47, 49, "class Leaf 46-46", ""}},
		{"Registry.java", 70, want{"method", "isOpen", 69, 71, "enum State 65-65", ""}},
		{"Registry.java", 12, want{"class", "Registry", 7, 75, "", "public class Registry<T extends Comparable<T>>"}},
		// C and C++: typedef'd structs, macros, preprocessor blocks,
		// templates, out-of-class definitions, nested structs.
		{"list.c", 15, want{"struct", "list_t", 14, 17, "", "typedef struct"}},
		{"list.c", 30, want{"function", "node_new", 25, 36, "", "static struct node *node_new(int v)"}},
		{"list.c", 54, want{"function", "list_dump", 52, 56, "", ""}},
		{"list.c", 6, want{"macro", "SQUARE", 6, 6, "", ""}},
		{"shapes.cpp", 23, want{"method", "dot", 22, 24, "struct Point 18-19", "T dot(const Point &o) const"}},
		{"shapes.cpp", 48, want{"function", "largest", 45, 52, "namespace geo 6-6", "template <typename T> T largest"}},
		{"shapes.cpp", 34, want{"method", "width", 34, 34, "struct Style 32-32", ""}},
		{"shapes.cpp", 42, want{"function", "Circle::area", 41, 43, "namespace geo 6-6", ""}},
		// Ruby: modules, classes, singleton methods, constants.
		{"queue.rb", 25, want{"method", "push", 22, 28, "class Queue 12-12", "def push(job)"}},
		{"queue.rb", 36, want{"method", "self.build", 34, 38, "class Queue 12-12", ""}},
		{"queue.rb", 42, want{"method", "run", 41, 43, "class Job 40-40", ""}},
		{"queue.rb", 9, want{"const", "VERSION", 9, 9, "module Jobs 8-8", ""}},
		{"queue.rb", 59, want{"function", "helper", 58, 60, "", ""}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s:%d", c.file, c.line), func(t *testing.T) {
			src := readFixture(t, c.file)
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

// TestFallbacks checks the answers that send the caller to a window.
func TestFallbacks(t *testing.T) {
	cases := []struct {
		name string
		lang Language
		src  []byte
		line int
		want error
	}{
		{"go import line", Go, readFixture(t, "server.go"), 5, ErrNoDecl},
		{"python main block", Python, readFixture(t, "inventory.py"), 79, ErrNoDecl},
		{"blank line between decls", Rust, readFixture(t, "cache.rs"), 46, ErrNoDecl},
		{"line 0", Go, readFixture(t, "server.go"), 0, ErrNoDecl},
		{"past the end", Go, readFixture(t, "server.go"), 10_000, ErrNoDecl},
		{"empty source", Python, nil, 1, ErrNoDecl},
		{"go syntax error", Go, readFixture(t, "broken.go"), 12, ErrSyntax},
		{"python syntax error", Python, readFixture(t, "broken.py"), 6, ErrSyntax},
		{"rust syntax error", Rust, readFixture(t, "broken.rs"), 6, ErrSyntax},
		{"ts syntax error", TypeScript, readFixture(t, "broken.ts"), 9, ErrSyntax},
		{"error outside any declaration", Python, []byte("x = (1,\n  2,\n"), 2, ErrSyntax},
		{"unknown language", Language("cobol"), []byte("IDENTIFICATION DIVISION."), 1, ErrNoParser},
		{"too large", Go, bytes.Repeat([]byte("// x\n"), MaxSource/5+1), 1, ErrTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := Enclosing(c.lang, c.src, c.line)
			if !errors.Is(err, c.want) {
				t.Fatalf("Enclosing = %+v, %v; want %v", d, err, c.want)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("%v is not a *syntax.Error", err)
			}
		})
	}
	// Clean declarations of a broken file still answer.
	for _, c := range []struct {
		file string
		line int
	}{{"broken.go", 5}, {"broken.py", 12}, {"broken.rs", 11}, {"broken.ts", 12}} {
		src := readFixture(t, c.file)
		lang, _ := Detect(c.file, nil)
		if _, err := Enclosing(lang, src, c.line); err != nil {
			t.Errorf("%s:%d: %v", c.file, c.line, err)
		}
		if he, err := HasErrors(lang, src); err != nil || !he {
			t.Errorf("HasErrors(%s) = %v, %v; want true", c.file, he, err)
		}
	}
	if _, err := Outline(Go, bytes.Repeat([]byte("\n"), MaxSource+1)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Outline of a large source: %v", err)
	}
}

// TestInvariants checks, for every fixture and every declaration that
// Outline or Enclosing returns, that the byte range is exactly the line
// range, the signature is one bounded line, and members nest in parents.
func TestInvariants(t *testing.T) {
	for name, lang := range fixtures(t) {
		src := readFixture(t, name)
		lines := bytes.SplitAfter(src, []byte("\n"))
		check := func(where string, d Decl) {
			if d.StartLine < 1 || d.EndLine < d.StartLine || d.EndLine > len(lines) {
				t.Errorf("%s %s: bad lines %d-%d", name, where, d.StartLine, d.EndLine)
				return
			}
			want := bytes.Join(lines[d.StartLine-1:d.EndLine], nil)
			if d.StartByte < 0 || d.EndByte > len(src) || d.StartByte > d.EndByte || !bytes.Equal(src[d.StartByte:d.EndByte], want) {
				t.Errorf("%s %s: bytes %d-%d are not lines %d-%d", name, where, d.StartByte, d.EndByte, d.StartLine, d.EndLine)
			}
			if len(d.Signature) > MaxSignature || strings.ContainsAny(d.Signature, "\n\t") || d.Signature == "" {
				t.Errorf("%s %s: signature %q", name, where, d.Signature)
			}
		}
		ol, err := Outline(lang, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ol {
			check(d.Name, d)
			for _, c := range d.Children {
				check(d.Name+"."+c.Name, c)
				if c.StartLine < d.StartLine || c.EndLine > d.EndLine {
					t.Errorf("%s: member %s %d-%d outside %s %d-%d", name, c.Name, c.StartLine, c.EndLine, d.Name, d.StartLine, d.EndLine)
				}
			}
		}
		for l := 1; l <= len(lines); l++ {
			d, err := Enclosing(lang, src, l)
			if err != nil {
				continue
			}
			check(fmt.Sprintf("line %d", l), d)
			if d.StartLine > l || d.EndLine < l {
				t.Errorf("%s: line %d answered with %d-%d", name, l, d.StartLine, d.EndLine)
			}
			if h := d.Header; h != nil {
				check(fmt.Sprintf("header of line %d", l), *h)
				if h.StartLine > d.StartLine && h.EndLine < d.EndLine {
					t.Errorf("%s: header %d-%d inside its member %d-%d", name, h.StartLine, h.EndLine, d.StartLine, d.EndLine)
				}
			}
		}
	}
}

// TestOutlineIsACopy: changing a returned outline leaves the cache intact.
func TestOutlineIsACopy(t *testing.T) {
	src := readFixture(t, "cache.rs")
	a, _ := Outline(Rust, src)
	a[0].Name = "changed"
	for i := range a {
		if len(a[i].Children) > 0 {
			a[i].Children[0].Name = "changed"
		}
	}
	b, _ := Outline(Rust, src)
	for _, d := range b {
		if d.Name == "changed" || (len(d.Children) > 0 && d.Children[0].Name == "changed") {
			t.Fatal("Outline returned cached slices")
		}
	}
	d, _ := Enclosing(Rust, src, 60)
	d.Header.Name = "changed"
	if d2, _ := Enclosing(Rust, src, 60); d2.Header.Name == "changed" {
		t.Fatal("Enclosing returned the cached header")
	}
}

// TestConcurrent asks many goroutines about several sources at once (run
// with -race to check the cache).
func TestConcurrent(t *testing.T) {
	files := []string{"server.go", "inventory.py", "cache.rs", "store.ts", "shapes.cpp"}
	srcs := make([][]byte, len(files))
	langs := make([]Language, len(files))
	for i, f := range files {
		srcs[i] = readFixture(t, f)
		langs[i], _ = Detect(f, nil)
	}
	want := make([]string, len(files))
	for i := range files {
		ol, err := Outline(langs[i], srcs[i])
		if err != nil {
			t.Fatal(err)
		}
		want[i] = fmt.Sprint(ol)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(g)))
			for k := 0; k < 40; k++ {
				i := rng.Intn(len(files))
				src := srcs[i]
				if k%5 == 0 { // a fresh source: a parse, not a hit
					src = append(append([]byte(nil), src...), fmt.Sprintf("\n// %d %d\n", g, k)...)
				}
				ol, err := Outline(langs[i], src)
				if err != nil {
					errs <- err
					return
				}
				if k%5 != 0 && fmt.Sprint(ol) != want[i] {
					errs <- fmt.Errorf("%s: outline differs under concurrency", files[i])
					return
				}
				if _, err := Enclosing(langs[i], src, 1+rng.Intn(40)); err != nil && !errors.Is(err, ErrNoDecl) {
					errs <- err
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestSupported: every known language has a parser in a cgo build.
func TestSupported(t *testing.T) {
	for _, l := range Languages() {
		if !Supported(l) {
			t.Errorf("no parser for %s", l)
		}
		if _, err := Outline(l, []byte("\n")); err != nil {
			t.Errorf("Outline(%s): %v", l, err)
		}
	}
	if Supported("cobol") {
		t.Error("cobol supported")
	}
}

// TestDeepNesting: a deeply nested source neither crashes nor recurses.
func TestDeepNesting(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("package p\n\nfunc f() {\n\tx := ")
	for i := 0; i < 20000; i++ {
		sb.WriteString("(\n")
	}
	sb.WriteString("1")
	for i := 0; i < 20000; i++ {
		sb.WriteString(")\n")
	}
	sb.WriteString("\t_ = x\n}\n")
	src := []byte(sb.String())
	d, err := Enclosing(Go, src, 20000)
	if err != nil || d.Name != "f" {
		t.Fatalf("got %+v, %v", d, err)
	}
}

// FuzzEnclosing feeds arbitrary bytes to every grammar: no panic, and
// every answer keeps the invariants.
func FuzzEnclosing(f *testing.F) {
	for _, name := range []string{"server.go", "inventory.py", "cache.rs", "store.ts", "queue.rb", "list.c",
		"deploy.sh", "Inventory.cs", "theme.css", "page.html", "Cache.kt", "queue.lua", "Mailer.php", "Ledger.scala", "Player.swift", "deploy.yaml"} {
		src, err := os.ReadFile(filepath.Join(fixtureDir, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src[:len(src)/2], uint8(len(name)), uint16(7))
	}
	f.Add([]byte("\x00\xff{{{((("), uint8(3), uint16(1))
	f.Fuzz(func(t *testing.T, src []byte, li uint8, line uint16) {
		langs := Languages()
		lang := langs[int(li)%len(langs)]
		d, err := Enclosing(lang, src, int(line))
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if d.StartByte < 0 || d.EndByte > len(src) || d.StartByte > d.EndByte || d.StartLine > int(line) || d.EndLine < int(line) {
			t.Fatalf("bad answer %+v for line %d of %d bytes", d, line, len(src))
		}
		if _, err := Outline(lang, src); err != nil {
			t.Fatalf("Outline: %v", err)
		}
	})
}
