package structural

import (
	"fmt"
	"sort"
	"strings"

	"github.com/evgrep/evgrep/syntax"
)

// Lang is a language structural search knows: its grammar in package
// syntax, the character that stands for `$` in patterns of languages where
// `$` cannot start an identifier (ast-grep's "expando" character), and the
// file extensions searched for it.
type Lang struct {
	// Name is the canonical name (the syntax.Language).
	Name    syntax.Language
	aliases []string
	expando rune
	exts    []string
}

// langs is ast-grep's table of languages, names, expando characters and
// extensions, for the languages package syntax may have grammars for.
var langs = []Lang{
	{Name: "bash", aliases: []string{"bash"}, expando: '$', exts: []string{"bash", "bats", "cgi", "command", "env", "fcgi", "ksh", "sh", "tmux", "tool", "zsh"}},
	{Name: "c", aliases: []string{"c"}, expando: '_', exts: []string{"c", "h"}},
	{Name: "cpp", aliases: []string{"cc", "c++", "cpp", "cxx"}, expando: '_', exts: []string{"cc", "hpp", "cpp", "c++", "hh", "cxx", "cu", "ino"}},
	{Name: "csharp", aliases: []string{"cs", "csharp"}, expando: 'µ', exts: []string{"cs"}},
	{Name: "css", aliases: []string{"css"}, expando: '_', exts: []string{"css", "scss"}},
	{Name: "go", aliases: []string{"go", "golang"}, expando: 'µ', exts: []string{"go"}},
	{Name: "html", aliases: []string{"html"}, expando: '$', exts: []string{"html", "htm", "xhtml"}},
	{Name: "java", aliases: []string{"java"}, expando: '$', exts: []string{"java"}},
	{Name: "javascript", aliases: []string{"javascript", "js", "jsx"}, expando: '$', exts: []string{"cjs", "js", "mjs", "jsx"}},
	{Name: "kotlin", aliases: []string{"kotlin", "kt"}, expando: 'µ', exts: []string{"kt", "ktm", "kts"}},
	{Name: "lua", aliases: []string{"lua"}, expando: '$', exts: []string{"lua"}},
	{Name: "php", aliases: []string{"php"}, expando: 'µ', exts: []string{"php"}},
	{Name: "python", aliases: []string{"py", "python"}, expando: 'µ', exts: []string{"py", "py3", "pyi", "bzl"}},
	{Name: "ruby", aliases: []string{"rb", "ruby"}, expando: 'µ', exts: []string{"rb", "rbw", "gemspec"}},
	{Name: "rust", aliases: []string{"rs", "rust"}, expando: 'µ', exts: []string{"rs"}},
	{Name: "scala", aliases: []string{"scala"}, expando: '$', exts: []string{"scala", "sc", "sbt"}},
	{Name: "swift", aliases: []string{"swift"}, expando: 'µ', exts: []string{"swift"}},
	{Name: "tsx", aliases: []string{"tsx"}, expando: '$', exts: []string{"tsx"}},
	{Name: "typescript", aliases: []string{"ts", "typescript"}, expando: '$', exts: []string{"ts", "cts", "mts"}},
	{Name: "yaml", aliases: []string{"yaml", "yml"}, expando: '$', exts: []string{"yaml", "yml"}},
}

// LookupLang finds a language by any of its names (case-insensitive). It
// fails for a language without a grammar in this build, naming the ones
// that have one.
func LookupLang(name string) (*Lang, error) {
	for i := range langs {
		l := &langs[i]
		for _, a := range l.aliases {
			if strings.EqualFold(a, name) || strings.EqualFold(string(l.Name), name) {
				if !syntax.Supported(l.Name) {
					if !cgoBuild {
						return nil, ErrNoCgo
					}
					break
				}
				return l, nil
			}
		}
	}
	return nil, fmt.Errorf("unknown language %q (known: %s)", name, strings.Join(LangNames(), ", "))
}

// LangNames lists the canonical names of the languages with a grammar in
// this build, sorted.
func LangNames() []string {
	var out []string
	for _, l := range langs {
		if syntax.Supported(l.Name) {
			out = append(out, string(l.Name))
		}
	}
	sort.Strings(out)
	return out
}

// HasFile reports whether a file of this path belongs to the language by
// its extension (ast-grep's extension lists), or is an HTML file that
// embeds blocks of it (see IsHTMLHost).
func (l *Lang) HasFile(p string) bool {
	return hasExt(p, l.exts) || l.IsHTMLHost(p)
}

// Globs are the file globs of the language ("*.go").
func (l *Lang) Globs() []string {
	out := make([]string, len(l.exts))
	for i, e := range l.exts {
		out[i] = "*." + e
	}
	return out
}

// preprocess replaces the `$` of metavariables with the language's expando
// character, as ast-grep does: a run of `$` followed by an upper-case
// letter or `_`, or exactly three `$`, is a metavariable sigil.
func (l *Lang) preprocess(p string) string {
	if l.expando == '$' {
		return p
	}
	var b strings.Builder
	dollars := 0
	flush := func(replace bool) {
		c := '$'
		if replace {
			c = l.expando
		}
		for ; dollars > 0; dollars-- {
			b.WriteRune(c)
		}
	}
	for _, c := range p {
		if c == '$' {
			dollars++
			continue
		}
		flush((c >= 'A' && c <= 'Z') || c == '_' || dollars == 3)
		b.WriteRune(c)
	}
	flush(dollars == 3)
	return b.String()
}
