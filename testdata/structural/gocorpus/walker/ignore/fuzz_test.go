package ignore

import (
	"strings"
	"testing"
)

var fuzzSeeds = []string{
	"[中", `\`, "**", "!", "[]", "{", "}", "[z-a]", "[!]", "{a,{b}}", "a/**/b", "/**/", "**/",
	"*.{rs,go}", "[é-ü]x?", `\!x\ `, "#c", "!/a/", "a\r", "\xff[", "{,}", "[--]", "[^-]", "***/**",
}

var fuzzPaths = []string{"", "a", "a/b", "./a/b", "/r/a", "é", "x.rs", "foo.", "a/b/c/d.go", "\xff/\x00", "[", "{a}"}

// FuzzGitignoreLine feeds arbitrary ignore-file text: no panic, errors are
// *LineError, and every compiled glob agrees with its regexp oracle.
func FuzzGitignoreLine(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, false)
		f.Add(s+"\n!"+s+"/\n", true)
	}
	f.Fuzz(func(t *testing.T, data string, ci bool) {
		g, errs := NewGitignore("/r", []byte(data), ci)
		for _, e := range errs {
			if _, ok := e.(*LineError); !ok {
				t.Fatalf("error %T %v is not a *LineError", e, e)
			}
		}
		for _, p := range fuzzPaths {
			g.Match(p, false)
			g.Match(p, true)
		}
		for _, line := range strings.Split(data, "\n") {
			lg, ok, _ := compileLine(line, gitignoreOptions(ci))
			if ok {
				checkAgainstOracle(t, lg.glob.String(), gitignoreOptions(ci), fuzzPaths)
			}
		}
		o, err := NewOverride("/r", []OverrideGlob{{Pattern: data, CaseInsensitive: ci}})
		if err == nil {
			for _, p := range fuzzPaths {
				o.Match(p, false)
			}
		}
	})
}

// FuzzCompileGlob compiles arbitrary globs under every option: no panic,
// and strategies, automaton and regexp agree on the path given.
func FuzzCompileGlob(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "a/b", uint8(1))
		f.Add(s, s, uint8(7))
	}
	f.Fuzz(func(t *testing.T, glob, path string, flags uint8) {
		opts := GlobOptions{
			LiteralSeparator: flags&1 != 0,
			CaseInsensitive:  flags&2 != 0,
			BackslashEscape:  flags&4 != 0,
		}
		g, err := CompileGlob(glob, opts)
		if err != nil {
			if _, ok := err.(*GlobError); !ok {
				t.Fatalf("error %T %v is not a *GlobError", err, err)
			}
			return
		}
		g.Match(path)
		checkAgainstOracle(t, glob, opts, append([]string{path}, fuzzPaths...))
	})
}
