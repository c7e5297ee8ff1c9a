package rank

import (
	"reflect"
	"strings"
	"testing"
)

func tokens(text string) []string {
	var out []string
	Tokens(text, func(t string, kind int) {
		if kind == Part {
			t = "~" + t
		}
		out = append(out, t)
	})
	return out
}

func TestTokens(t *testing.T) {
	cases := []struct {
		in   string
		want string // space-separated; "~" marks a part
	}{
		{"RouteContext", "routecontext ~rout ~context"},
		{"routeContext", "routecontext ~rout ~context"},
		{"HTTPServer", "httpserver ~http ~server"},
		{"parse_args", "parse_args ~pars ~arg"},
		{"max-age", "max-age ~max ~age"},
		{"utf16", "utf16 ~utf ~16"},
		{"a - b", "a b"},
		{"Parses the Files", "pars the file"},
		{"x.y(z)", "x y z"},
		{"__init__", "init"},
		{"Größe", "größe"},
		{"", ""},
	}
	for _, c := range cases {
		got := tokens(c.in)
		want := strings.Fields(c.want)
		if len(got) == 0 && len(want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Tokens(%q) = %v, want %v", c.in, got, want)
		}
	}
}

func TestTokenLengthBound(t *testing.T) {
	long := strings.Repeat("a", 500)
	for _, tok := range tokens(long + " x") {
		if len(tok) > MaxTokenBytes {
			t.Fatalf("token of %d bytes", len(tok))
		}
	}
}

func TestStem(t *testing.T) {
	cases := map[string]string{
		"parse": "pars", "parses": "pars", "parsed": "pars", "parsing": "pars",
		"matches": "match", "matching": "match", "match": "match",
		"entries": "entry", "entry": "entry",
		"running": "run", "class": "class", "status": "status", "is": "is",
		"caches": "cach", "cache": "cach", "utf16": "utf16", "go": "go",
	}
	for in, want := range cases {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}

// Stop words leave queries, never documents.
func TestStopWordsForQueriesOnly(t *testing.T) {
	q := ParseQuery("where is the timeout of the client", &Default)
	var terms []string
	for _, qt := range q.Terms {
		terms = append(terms, qt.Term)
	}
	if !reflect.DeepEqual(terms, []string{"timeout", "client"}) {
		t.Errorf("query terms %v", terms)
	}
	if got := tokens("the timeout"); !reflect.DeepEqual(got, []string{"the", "timeout"}) {
		t.Errorf("document tokens %v", got)
	}
}

// Query type detection: identifiers by their shape, else natural language.
func TestQueryType(t *testing.T) {
	cases := []struct {
		q      string
		symbol bool
		idents []string
	}{
		{"RouteContext", true, []string{"routecontext"}},
		{"http.Server", true, []string{"server"}},
		{"parse_args", true, []string{"parse_args"}},
		{"ParseDuration()", true, []string{"parseduration"}},
		{"tokenize", true, []string{"tokenize"}},
		{"MAX_SIZE", true, []string{"max_size"}},
		{"request timeout middleware", false, nil},
		{"where is NewReader defined", false, []string{"newreader"}},
		{"EOF handling in the reader", false, []string{"eof"}},
	}
	for _, c := range cases {
		q := ParseQuery(c.q, &Default)
		if q.Symbol != c.symbol || !reflect.DeepEqual(q.Idents, c.idents) {
			t.Errorf("ParseQuery(%q): symbol %v idents %v, want %v %v", c.q, q.Symbol, q.Idents, c.symbol, c.idents)
		}
	}
}

// PartWeight weighs the pieces of a compound against the whole.
func TestPartWeight(t *testing.T) {
	p := Default
	p.PartWeight = 0.25
	q := ParseQuery("RouteContext", &p)
	want := []QueryTerm{{"routecontext", 1}, {"rout", 0.25}, {"context", 0.25}}
	if !reflect.DeepEqual(q.Terms, want) {
		t.Errorf("terms %v, want %v", q.Terms, want)
	}
}

// The reused term counter of NewFileDoc gives, chunk after chunk, the
// counts of a fresh map over the path, context and text (differential).
func TestTermCounterMatchesMap(t *testing.T) {
	texts := []struct{ context, text string }{
		{"", "func ParseDuration(s string) (Duration, error) { return parse(s) }"},
		{"type Server struct", "HTTPServer serves http_requests over TLS1_3; err err err"},
		{"", ""},
		{"impl Router", "route-context routes routing Routed ünïcode ΣΑΣ"},
		// Short runs (their own table): one and several tokens, none.
		{"", "a b ab Ab aB x_ _ __ 1 12 a1 i if i if aB a1 _ é é1"},
	}
	var c termCounter
	c.init("net/http/server.go")
	// Twice over: the second time every run's tokens are remembered.
	for _, x := range append(texts, texts...) {
		want := map[string]uint32{}
		add := func(t string, _ int) { want[t]++ }
		Tokens(pathText("net/http/server.go"), add)
		Tokens(x.context, add)
		Tokens(x.text, add)
		c.tids, c.tns = c.tids[:0], c.tns[:0]
		c.count(x.context, []byte(x.text))
		var got []TermCount
		for i, id := range c.tids {
			got = append(got, TermCount{c.dict.terms[id], c.tns[i]})
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d terms, want %d", x.text, len(got), len(want))
		}
		for _, tc := range got {
			if want[tc.Term] != tc.N {
				t.Errorf("%q: %v (want %d)", x.text, tc, want[tc.Term])
			}
			delete(want, tc.Term) // each term once
		}
	}
}
