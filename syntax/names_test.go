package syntax

import (
	"slices"
	"testing"
)

// TestNames: Names is ast-grep's set of canonical names, sorted, and every
// one resolves to itself.
func TestNames(t *testing.T) {
	want := []string{"bash", "c", "cpp", "csharp", "css", "go", "html", "java", "javascript",
		"kotlin", "lua", "php", "python", "ruby", "rust", "scala", "swift", "tsx", "typescript", "yaml"}
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %q, want %q", got, want)
	}
	for _, n := range want {
		if l, ok := Lookup(n); !ok || string(l) != n {
			t.Errorf("Lookup(%q) = %q, %v", n, l, ok)
		}
	}
}

// TestLookup: ast-grep's aliases and spellings resolve; others do not.
func TestLookup(t *testing.T) {
	for _, c := range []struct {
		name string
		want Language
		ok   bool
	}{
		{"golang", Go, true}, {"Go", Go, true}, {" go ", Go, true},
		{"py", Python, true}, {"rs", Rust, true},
		{"js", JavaScript, true}, {"jsx", JavaScript, true}, {"JavaScript", JavaScript, true},
		{"ts", TypeScript, true}, {"TypeScript", TypeScript, true}, {"Tsx", TSX, true},
		{"cc", Cpp, true}, {"c++", Cpp, true}, {"cxx", Cpp, true},
		{"rb", Ruby, true}, {"cs", CSharp, true}, {"CSharp", CSharp, true},
		{"kt", Kotlin, true}, {"yml", YAML, true}, {"Yaml", YAML, true},
		{"sh", "", false}, {"", "", false}, {"cobol", "", false}, {"c#", "", false},
	} {
		got, ok := Lookup(c.name)
		if got != c.want || ok != c.ok {
			t.Errorf("Lookup(%q) = %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
