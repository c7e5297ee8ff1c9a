package agent

import (
	"context"
	"encoding/json"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evgrep/evgrep/snapshot"
)

// TestNamesRoundTrip: every path has a name that is one line of valid
// UTF-8 and stands for exactly that path.
func TestNamesRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	alphabet := []string{"a", "/", ".", " ", "\"", "\\", "\n", "\r", "\t", "\xff", "\xe2\x82", "é", "😀", "\u2028", "\x7f", "x"}
	for i := 0; i < 5000; i++ {
		var b strings.Builder
		for n := r.Intn(8); n > 0; n-- {
			b.WriteString(alphabet[r.Intn(len(alphabet))])
		}
		p := b.String()
		name := nameOf(p)
		if pathOf(name) != p {
			t.Fatalf("%q: name %q stands for %q", p, name, pathOf(name))
		}
		if !utf8.ValidString(name) || strings.ContainsAny(name, "\n\r\u2028") {
			t.Fatalf("%q: name %q is not one line of UTF-8", p, name)
		}
	}
	if nameOf("dir/plain name.go") != "dir/plain name.go" || nameOf("é/😀.rs") != "é/😀.rs" {
		t.Fatal("a plain path is not its own name")
	}
}

// TestOddFileNames (issue 20, minor): a file whose name is not UTF-8 or
// holds a newline keeps the one-line format, and the name an answer shows
// selects it again: with a cursor's paths, and in the suggested inspect.
func TestOddFileNames(t *testing.T) {
	root := tree(t, map[string]string{"bad\xffname.txt": "needle one\n", "new\nline.txt": "needle two\n", "plain.txt": "needle three\n"})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"pattern":"needle","mode":"matches"}`)
	var lines []string
	for _, l := range strings.Split(a.Text, "\n") {
		if strings.Contains(l, "} ") && strings.Contains(l, "{match #") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 3 || !strings.HasPrefix(lines[0], `"bad\xffname.txt":1:`) || !strings.HasPrefix(lines[1], `"new\nline.txt":1:`) {
		t.Fatalf("match lines %q\n%s", lines, a.Text)
	}
	if len(a.Details.Matches) != 3 || a.Details.Matches[0].Path != `"bad\xffname.txt"` {
		t.Fatalf("details paths: %+v", a.Details.Matches)
	}
	// The suggested inspect reads both files.
	if len(a.Details.Next) == 0 {
		t.Fatal("no next call")
	}
	req, _ := json.Marshal(a.Details.Next[0].Request)
	in := ask(t, env, string(req))
	if !strings.Contains(in.Text, "1| needle one") || !strings.Contains(in.Text, "1| needle two") {
		t.Fatalf("suggested inspect:\n%s", in.Text)
	}
	// A summary cursor selects the file by the name it shows.
	s := ask(t, env, `{"pattern":"needle","mode":"summary"}`)
	if s.Details.SummaryCursor == "" {
		t.Fatalf("no cursor:\n%s", s.Text)
	}
	sel, _ := json.Marshal(map[string]any{"cursor": s.Details.SummaryCursor, "paths": []string{`"new\nline.txt"`}})
	m := HandleJSON(context.Background(), sel, env)
	if m.Failed || len(m.Details.Matches) != 1 || m.Details.Matches[0].Path != `"new\nline.txt"` {
		t.Fatalf("selected by name:\n%s", m.Text)
	}
}
