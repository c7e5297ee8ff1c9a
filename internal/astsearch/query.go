package astsearch

import (
	"errors"

	"github.com/evgrep/evgrep/structural"
)

// Query is a structural search's pattern and node kind in one language,
// as every front end gives them (the command line's --lang, --ast and
// --kind; the agent's lang, pattern and kind).
type Query struct {
	Lang, Pattern, Kind string
}

// Errors of Query.Compile that a front end words in its own terms.
var (
	// ErrNoLang: a pattern or a kind without a language.
	ErrNoLang = errors.New("a structural search needs a language")
	// ErrNothing: a language without a pattern or a kind.
	ErrNothing = errors.New("a structural search needs a pattern or a kind")
)

// Compile compiles q into its language, one matcher of the pattern and
// the kind together, the literals every match holds (the files'
// prefilter) and the pattern's warning ("" for none).
func (q Query) Compile() (lang *structural.Lang, m structural.Matcher, lits []string, warning string, err error) {
	if q.Lang == "" {
		return nil, nil, nil, "", ErrNoLang
	}
	if q.Pattern == "" && q.Kind == "" {
		return nil, nil, nil, "", ErrNothing
	}
	if lang, err = structural.LookupLang(q.Lang); err != nil {
		return nil, nil, nil, "", err
	}
	var ms []structural.Matcher
	if q.Pattern != "" {
		p, err := structural.CompilePattern(lang, q.Pattern)
		if err != nil {
			return nil, nil, nil, "", err
		}
		ms, lits, warning = append(ms, p), p.Literals(), p.Warning
	}
	if q.Kind != "" {
		k, err := structural.NewKindMatcher(lang, q.Kind)
		if err != nil {
			return nil, nil, nil, "", err
		}
		ms = append(ms, k)
	}
	return lang, structural.All(ms...), lits, warning, nil
}
