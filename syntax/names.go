package syntax

import (
	"sort"
	"strings"
)

// aliases maps the other spellings ast-grep accepts for --lang (and a
// rule's `language:`) to a Language. The Language values themselves are
// ast-grep's canonical names and are accepted as they are.
var aliases = map[string]Language{
	"golang": Go,
	"py":     Python,
	"rs":     Rust,
	"js":     JavaScript,
	"jsx":    JavaScript,
	"ts":     TypeScript,
	"cc":     Cpp,
	"c++":    Cpp,
	"cxx":    Cpp,
	"rb":     Ruby,
	"cs":     CSharp,
	"kt":     Kotlin,
	"yml":    YAML,
}

// Names lists the names of every Language, sorted: ast-grep's canonical
// language names (bash, c, cpp, csharp, css, go, html, java, javascript,
// kotlin, lua, php, python, ruby, rust, scala, swift, tsx, typescript,
// yaml). Lookup accepts these and ast-grep's aliases.
func Names() []string {
	langs := Languages()
	out := make([]string, len(langs))
	for i, l := range langs {
		out[i] = string(l)
	}
	sort.Strings(out)
	return out
}

// Lookup resolves a language name as ast-grep's --lang takes it: a
// canonical name from Names or an alias (golang, py, rs, js, jsx, ts, cc,
// c++, cxx, rb, cs, kt, yml), case-insensitively, surrounding spaces
// ignored. The second result is false for any other name.
func Lookup(name string) (Language, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	if l := Language(n); l.Known() {
		return l, true
	}
	l, ok := aliases[n]
	return l, ok
}
