package ignore

import (
	"math/rand"
	"strings"
	"testing"
)

var (
	optDefault = GlobOptions{BackslashEscape: true}
	optSep     = GlobOptions{BackslashEscape: true, LiteralSeparator: true}
	optCI      = GlobOptions{BackslashEscape: true, CaseInsensitive: true}
	optSepCI   = GlobOptions{BackslashEscape: true, LiteralSeparator: true, CaseInsensitive: true}
	optNoEsc   = GlobOptions{}
)

func TestGlobMatch(t *testing.T) {
	tests := []struct {
		glob string
		opts GlobOptions
		path string
		want bool
	}{
		{"a", optDefault, "a", true},
		{"a", optDefault, "b/a", false},
		{"a*b", optDefault, "a_b", true},
		{"a*b", optDefault, "a/x/b", true},
		{"a*b", optSep, "a/x/b", false},
		{"a*b", optSep, "axxb", true},
		{"a?b", optDefault, "a/b", true},
		{"a?b", optSep, "a/b", false},
		{"*.c", optDefault, "foo.c", true},
		{"*.c", optDefault, "dir/foo.c", true},
		{"*.c", optSep, "dir/foo.c", false},
		{"*.c", optDefault, ".c", true},
		{"*.c", optDefault, "foo.cc", false},
		{"**/*.c", optSep, "dir/sub/foo.c", true},
		{"**/*.c", optSep, "foo.c", true},
		{"**/foo", optSep, "foo", true},
		{"**/foo", optSep, "a/b/foo", true},
		{"**/foo", optSep, "a/bfoo", false},
		{"**/foo", optSep, "/foo", true},
		{"**/a/b", optSep, "a/b", true},
		{"**/a/b", optSep, "x/a/b", true},
		{"**/a/b", optSep, "xa/b", false},
		{"foo/**", optSep, "foo/x/y", true},
		{"foo/**", optSep, "foo/", true},
		{"foo/**", optSep, "foo", false},
		{"foo/**/bar", optSep, "foo/bar", true},
		{"foo/**/bar", optSep, "foo/x/y/bar", true},
		{"foo/**/bar", optSep, "foobar", false},
		{"**", optSep, "", true},
		{"**", optSep, "a/b/c", true},
		{"**/", optSep, "a/b", true},
		{"a**", optSep, "ab", true},
		{"a**", optSep, "a/b", false},
		{"**a", optSep, "xa", true},
		{"[abc]", optDefault, "b", true},
		{"[abc]", optDefault, "d", false},
		{"[!abc]", optDefault, "d", true},
		{"[^abc]", optDefault, "a", false},
		{"[a-c]x", optDefault, "bx", true},
		{"[]]", optDefault, "]", true},
		{"[-]", optDefault, "-", true},
		{"[a-]", optDefault, "-", true},
		{"[!x]", optSep, "/", true}, // a class may match '/'
		{"[/]", optSep, "/", true},
		{"?", optDefault, "é", false}, // byte-wise: é is two bytes
		{"??", optDefault, "é", true},
		{"[é]", optDefault, "é", false},
		{"[é][é]", optDefault, "é", true},
		{"[é-ê]", optDefault, "\xa9", true}, // range joins the inner bytes only
		{"[é-ê]", optDefault, "\xaa", true},
		{"[é-ê]", optDefault, "\xc3", true},
		{"[é-ê]", optDefault, "\xc4", false},
		{"{a,b}", optDefault, "a", true},
		{"{a,b}", optDefault, "b", true},
		{"{a,b}", optDefault, "c", false},
		{"x{a,b}y", optDefault, "xby", true},
		{"{,ab}", optDefault, "", false}, // empty alternatives are dropped
		{"{,ab}", optDefault, "ab", true},
		{"a{}", optDefault, "a", true},
		{"{a,{b,c}}", optDefault, "c", true}, // alternates nest (rg 15)
		{"*.{a,{b,{c,d}}}", optSep, "x.d", true},
		{"*.{a,{b,{c,d}}}", optSep, "x.e", false},
		{"{a.{a,b},x}", optDefault, "a.b", true},
		{"{a.{a,b},x}", optDefault, "a.", false},
		{"*.{}", optSep, "a.", true},
		{"a,b", optDefault, "a,b", true},
		{"{**/x,b}", optSep, "a/b/x", true},
		{"{a/**,z}", optSep, "a/b/c", true},
		{"{*.rs,*.go}", optSep, "main.go", true},
		{`\*`, optDefault, "*", true},
		{`\*`, optDefault, "a", false},
		{`\*`, optNoEsc, `\x`, true},
		{`a\[b`, optDefault, "a[b", true},
		{"ABC", optCI, "abc", true},
		{"abc", optCI, "ABC", true},
		{"é", optCI, "É", false}, // only ASCII folds
		{"[a-c]", optCI, "B", true},
		{"[!b]", optCI, "B", false}, // folded, then negated
		{"[!b]", optCI, "c", true},
		{"*.RS", optSepCI, "src/main.rs", false},
		{"**/*.RS", optSepCI, "src/main.rs", true},
		{"foo.", optSep, "foo.", true}, // literal strategy: exact
		// ripgrep 15 fixed the trailing-dot quirk: a basename ending in
		// '.' is still a basename.
		{"**/foo.", optSep, "foo.", true},
		{"**/foo.", optSep, "a/foo.", true},
		{"**/foo.", optSepCI, "foo.", true}, // case-insensitive runs compiled
		{"**/*.", optSep, "foo.", true},
		{"**/*.", optSep, "...", true},
		{"**/...", optSep, "a/...", true},
		{"**/*.", optSep, "a/..", false}, // ".." has no basename
		{"**/b*.", optSep, "bar.", true},
		{"**/b*.", optSepCI, "bar.", true},
		{"", optDefault, "", true},
		{"", optDefault, "a", false},
	}
	for _, tc := range tests {
		g, err := CompileGlob(tc.glob, tc.opts)
		if err != nil {
			t.Errorf("CompileGlob(%q, %+v): %v", tc.glob, tc.opts, err)
			continue
		}
		if got := g.Match(tc.path); got != tc.want {
			t.Errorf("CompileGlob(%q, %+v).Match(%q) = %v, want %v", tc.glob, tc.opts, tc.path, got, tc.want)
		}
	}
}

func TestStrategy(t *testing.T) {
	tests := []struct {
		glob string
		opts GlobOptions
		want strategy
		lit  string
	}{
		{"foo", optSep, stratLiteral, "foo"},
		{"foo/bar", optSep, stratLiteral, "foo/bar"},
		{"**/foo", optSep, stratBasenameLiteral, "foo"},
		{"**/foo", optSepCI, stratRegex, ""},
		{"**/*.rs", optSep, stratExtension, ".rs"},
		{"*.rs", optDefault, stratExtension, ".rs"},
		{"*.rs", optSep, stratRequiredExtension, ".rs"},
		{"*.tar.gz", optDefault, stratSuffix, ".tar.gz"},
		{"**/*.tar.gz", optSep, stratRequiredExtension, ".gz"},
		{"foo*", optDefault, stratPrefix, "foo"},
		{"foo*", optSep, stratRegex, ""},
		{"foo/**", optSep, stratPrefix, "foo/"},
		{"**/foo/bar", optSep, stratComponentSuffix, "/foo/bar"},
		{"*foo", optDefault, stratSuffix, "foo"},
		{"**/a*.c", optSep, stratRequiredExtension, ".c"},
		{"**/a*b", optSep, stratRegex, ""},
		{"**", optSep, stratRegex, ""},
		{"", optSep, stratRegex, ""},
	}
	for _, tc := range tests {
		g, err := CompileGlob(tc.glob, tc.opts)
		if err != nil {
			t.Fatalf("CompileGlob(%q): %v", tc.glob, err)
		}
		if g.strategy != tc.want || g.lit != tc.lit {
			t.Errorf("CompileGlob(%q, %+v): strategy %d %q, want %d %q", tc.glob, tc.opts, g.strategy, g.lit, tc.want, tc.lit)
		}
	}
}

// basenameBased reports whether g is answered from the basename or the
// extension, which is where globset departs from its own regex.
func basenameBased(g *Glob) bool {
	switch g.strategy {
	case stratBasenameLiteral, stratExtension, stratRequiredExtension:
		return true
	}
	return false
}

// checkAgainstOracle compares g with the same glob compiled to Go's regexp
// without strategies; they must agree except on the documented quirk.
func checkAgainstOracle(t *testing.T, glob string, opts GlobOptions, paths []string) {
	t.Helper()
	g, err := compileGlob(glob, opts, engineAuto)
	if err != nil {
		return
	}
	oracle, err := compileGlob(glob, opts, engineRegexp)
	if err != nil {
		t.Fatalf("%q compiles, but not to a regexp: %v", glob, err)
	}
	nfa, err := compileGlob(glob, opts, engineNFA)
	if err != nil {
		t.Fatalf("%q compiles, but not to an NFA: %v", glob, err)
	}
	for _, p := range paths {
		got, want := g.Match(p), oracle.Match(p)
		if n := nfa.Match(p); n != want {
			t.Errorf("glob %q %+v path %q: NFA says %v, regexp says %v", glob, opts, p, n, want)
		}
		if got == want {
			continue
		}
		if basenameBased(g) && newCandidate(p).base == "" && !got {
			continue // the trailing-dot quirk
		}
		t.Errorf("glob %q %+v path %q: strategy %d (%T) says %v, regexp says %v", glob, opts, p, g.strategy, g.re, got, want)
	}
}

func TestAutomatonAgainstRegexp(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	atoms := []string{"a", "b", ".", "/", "*", "?", "**", "**/", "/**", "/**/", "[ab]", "[!a]", "[a-c]", "{a,b}", "{a,**/b}", "é", `\*`, "A", "[é]"}
	pathAtoms := []string{"a", "b", "c", ".", "/", "A", "é", "*", "\xff"}
	all := []GlobOptions{optDefault, optSep, optCI, optSepCI, optNoEsc}
	for i := 0; i < 3000; i++ {
		var gb strings.Builder
		for n := rng.Intn(6) + 1; n > 0; n-- {
			gb.WriteString(atoms[rng.Intn(len(atoms))])
		}
		var paths []string
		for j := 0; j < 20; j++ {
			var pb strings.Builder
			for n := rng.Intn(8); n > 0; n-- {
				pb.WriteString(pathAtoms[rng.Intn(len(pathAtoms))])
			}
			paths = append(paths, pb.String())
		}
		checkAgainstOracle(t, gb.String(), all[rng.Intn(len(all))], paths)
	}
}

// A glob too large for the bitset automaton runs on Go's regexp.
func TestLargeGlob(t *testing.T) {
	long := strings.Repeat("ab*", maxAutomatonPositions)
	g, err := CompileGlob(long, optSep)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := g.re.(*byteRegexp); !ok {
		t.Fatalf("glob of %d positions uses %T, want *byteRegexp", countPositions(buildTree(mustParse(t, long), optSep)), g.re)
	}
	path := strings.Repeat("abxx", maxAutomatonPositions)
	if !g.Match(path) {
		t.Errorf("large glob does not match %q...", path[:20])
	}
	if g.Match(path + "/") {
		t.Errorf("large glob matches across '/'")
	}
	if !g.Match(strings.Repeat("abé", maxAutomatonPositions)) {
		t.Errorf("large glob does not match a non-ASCII path")
	}
	small, err := CompileGlob("a*b", optSep)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := small.re.(*dfa); !ok {
		t.Errorf("small glob uses %T, want *dfa", small.re)
	}
}

// A glob whose DFA would blow up runs on the bitset NFA: "an 'a' nine
// bytes before the end" needs 2^9 subsets.
func TestDFABlowupUsesNFA(t *testing.T) {
	glob := "*a?????????"
	g, err := CompileGlob(glob, optDefault)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := g.re.(*automaton); !ok {
		t.Fatalf("%q uses %T, want *automaton", glob, g.re)
	}
	checkAgainstOracle(t, glob, optDefault, []string{"a123456789", "x/ab23456789", "ab234567890", "a12345678", "a/23456789"})
	if !g.Match("dir/xa123456789") || g.Match("a12345678") {
		t.Errorf("%q: wrong verdicts", glob)
	}
}

func mustParse(t *testing.T, glob string) []token {
	t.Helper()
	pg, err := parseGlob(glob, true, false)
	if err != nil {
		t.Fatal(err)
	}
	return pg.toks
}

func TestAutomatonMultiWord(t *testing.T) {
	// 100 positions need two words.
	glob := "**/" + strings.Repeat("[ab]", 100)
	checkAgainstOracle(t, glob, optSep, []string{
		strings.Repeat("a", 100), "x/" + strings.Repeat("ab", 50), strings.Repeat("a", 99), strings.Repeat("a", 101), strings.Repeat("a", 99) + "c",
	})
	g, err := CompileGlob(glob, optSep)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Match("dir/" + strings.Repeat("b", 100)) {
		t.Errorf("two-word automaton misses a match")
	}
}

func TestMatchDoesNotAllocate(t *testing.T) {
	globs := []string{"**/*.rs", "**/a*b", "foo/**", "**/foo", "*.[ch]", "{a,b}/**/c?"}
	for _, s := range globs {
		g, err := CompileGlob(s, optSep)
		if err != nil {
			t.Fatal(err)
		}
		path := "src/some/deep/path/ab_file.rs"
		if n := testing.AllocsPerRun(100, func() { g.Match(path) }); n != 0 {
			t.Errorf("Glob(%q).Match allocates %v times", s, n)
		}
	}
}
