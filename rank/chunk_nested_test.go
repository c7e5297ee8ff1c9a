package rank

import (
	"strings"
	"testing"

	"github.com/evgrep/evgrep/syntax"
)

// bigRubyClass is a module holding a class too large for one chunk, whose
// methods carry doc comments.
func bigRubyClass() []byte {
	var b strings.Builder
	b.WriteString("module Rack\n  class Deflater\n")
	for i := 0; i < 12; i++ {
		b.WriteString("    # Compresses the body of response number " + string(rune('a'+i)) + " with gzip.\n")
		b.WriteString("    def method_" + string(rune('a'+i)) + "(env)\n")
		b.WriteString("      " + strings.Repeat("env = env.merge(x) ; ", 6) + "\n    end\n\n")
	}
	b.WriteString("  end\nend\n")
	return []byte(b.String())
}

// TestSplitNestedMembers: the methods of a class inside a module are
// chunks of their own (every level of nesting is cut, not two).
func TestSplitNestedMembers(t *testing.T) {
	if !syntax.Supported(syntax.Ruby) {
		t.Skip("no Ruby parser in this build")
	}
	src := bigRubyClass()
	chunks := Split("lib/rack/deflater.rb", src)
	covers(t, src, chunks)
	n := 0
	for _, c := range chunks {
		if c.Kind == "method" && strings.HasPrefix(c.Name, "method_") && !c.Cont {
			n++
			if !strings.Contains(c.Context, "class Deflater") {
				t.Errorf("method %s has context %q", c.Name, c.Context)
			}
		}
	}
	if n != 12 {
		t.Errorf("%d method chunks, want 12: %+v", n, chunks)
	}
}

// TestSplitAttachesComments: the comment lines right above a declaration
// are in its chunk (a member's doc in Ruby, a function's block comment in
// C), and a preprocessor line is not taken for one.
func TestSplitAttachesComments(t *testing.T) {
	if !syntax.Supported(syntax.Ruby) || !syntax.Supported(syntax.C) {
		t.Skip("no Ruby or C parser in this build")
	}
	src := bigRubyClass()
	for _, c := range Split("lib/rack/deflater.rb", src) {
		if c.Name == "method_c" && !strings.HasPrefix(strings.TrimSpace(string(src[c.StartByte:c.EndByte])), "# Compresses the body of response number c") {
			t.Errorf("method_c chunk starts %q", string(src[c.StartByte:c.EndByte]))
		}
	}
	csrc := []byte("#include <stdlib.h>\n/* Sort an array with a comparison\n * function (smoothsort). */\nvoid qsort(void *base, int n)\n{\n\tbase = 0;\n}\n")
	chunks := Split("src/stdlib/qsort.c", csrc)
	covers(t, csrc, chunks)
	var fn *Chunk
	for i := range chunks {
		if chunks[i].Name == "qsort" {
			fn = &chunks[i]
		}
	}
	if fn == nil || fn.StartLine != 2 {
		t.Fatalf("qsort chunk %+v, want it from line 2 (its comment)", fn)
	}
	if !commentLine([]byte("  # if the body is empty")) || commentLine([]byte("#if defined(X)")) || commentLine([]byte("x = 1")) {
		t.Error("commentLine: a Ruby comment that starts with \"if\", a directive or code misread")
	}
}
