package structural

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/evgrep/evgrep/syntax"
)

// Fix is a rule's `fix`: the template that replaces each match, and the
// rules that widen the replaced range over the match's following
// (ExpandEnd) or preceding (ExpandStart) siblings while they match.
type Fix struct {
	Template               string
	expandStart, expandEnd *fixExpansion
}

// fixExpansion is expandStart or expandEnd: a rule for the siblings of the
// match, with stopBy as in a relational rule (neighbor: only the next
// one; end: the first that matches; a rule: up to the first that matches
// it).
type fixExpansion struct {
	rule, stop Matcher
	toEnd      bool
}

// Derived is the value of a transform's metavariable for one match.
type Derived struct {
	Name, Text string
	// Indent is the indentation of the line the transformed capture
	// starts on (a multi-line value is re-indented from it).
	Indent int
}

// transform is one entry of a rule's `transform`: a new metavariable
// computed from another's text.
type transform struct {
	name   string
	source string // metavariable name, without the sigil
	multi  bool   // source is $$$NAME
	// substring
	op         string // "substring", "replace" or "convert"
	start, end *int
	// replace
	re *regexp.Regexp
	by string
	// convert
	toCase string
	seps   []string // nil: all separators
	// rewrite
	rewriters []string
	joinBy    *string
}

func (rp *ruleParser) parseFix(v *yaml.Node) (*Fix, error) {
	if v.Kind == yaml.ScalarNode {
		return &Fix{Template: v.Value}, nil
	}
	kv, err := mapping(v, "fix")
	if err != nil {
		return nil, err
	}
	f := &Fix{}
	seen := false
	for _, p := range kv {
		switch p[0].Value {
		case "template":
			if f.Template, err = scalar(p[1], "fix.template"); err != nil {
				return nil, err
			}
			seen = true
		case "expandStart", "expandEnd":
			r, err := rp.relation(p[0].Value, p[1], 1)
			if err != nil {
				return nil, err
			}
			rel := r.(*relational)
			x := &fixExpansion{rule: rel.sub, stop: rel.stop, toEnd: rel.toEnd}
			if p[0].Value == "expandStart" {
				f.expandStart = x
			} else {
				f.expandEnd = x
			}
		default:
			return nil, fmt.Errorf("line %d: unknown key %q in fix (known: template, expandStart, expandEnd)", p[0].Line, p[0].Value)
		}
	}
	if !seen {
		return nil, fmt.Errorf("line %d: fix needs a template", v.Line)
	}
	return f, nil
}

// sourceVar reads a transform's source: $NAME or $$$NAME.
func sourceVar(s string, line int) (name string, multi bool, err error) {
	m := metaVar(s, '$')
	if m == nil || m.name == "" {
		return "", false, fmt.Errorf("line %d: source %q is not a named metavariable", line, s)
	}
	return m.name, m.meta == metaMultiCap, nil
}

func parseTransforms(v *yaml.Node) ([]transform, error) {
	kv, err := mapping(v, "transform")
	if err != nil {
		return nil, err
	}
	var out []transform
	for _, p := range kv {
		tr := transform{name: p[0].Value}
		if p[1].Kind == yaml.ScalarNode {
			return nil, fmt.Errorf("line %d: transform %s: the string form is not supported; give substring, replace or convert as an object", p[1].Line, tr.name)
		}
		okv, err := mapping(p[1], "transform "+tr.name)
		if err != nil {
			return nil, err
		}
		if len(okv) != 1 {
			return nil, fmt.Errorf("line %d: transform %s must have exactly one of substring, replace, convert", p[1].Line, tr.name)
		}
		tr.op = okv[0][0].Value
		args, err := mapping(okv[0][1], tr.op)
		if err != nil {
			return nil, err
		}
		var re, by, toCase *string
		var haveRewriters bool
		for _, a := range args {
			k, x := a[0].Value, a[1]
			switch {
			case k == "source":
				if tr.source, tr.multi, err = sourceVar(x.Value, x.Line); err != nil {
					return nil, err
				}
			case tr.op == "substring" && (k == "startChar" || k == "endChar"):
				n, err := strconv.Atoi(x.Value)
				if err != nil {
					return nil, fmt.Errorf("line %d: %s must be a number", x.Line, k)
				}
				if k == "startChar" {
					tr.start = &n
				} else {
					tr.end = &n
				}
			case tr.op == "replace" && k == "replace":
				re = &x.Value
			case tr.op == "replace" && k == "by":
				by = &x.Value
			case tr.op == "rewrite" && k == "rewriters":
				if x.Kind != yaml.SequenceNode {
					return nil, fmt.Errorf("line %d: rewriters must be a list of ids", x.Line)
				}
				for _, id := range x.Content {
					tr.rewriters = append(tr.rewriters, id.Value)
				}
				haveRewriters = true
			case tr.op == "rewrite" && k == "joinBy":
				j := x.Value
				tr.joinBy = &j
			case tr.op == "convert" && k == "toCase":
				toCase = &x.Value
			case tr.op == "convert" && k == "separatedBy":
				if x.Kind != yaml.SequenceNode {
					return nil, fmt.Errorf("line %d: separatedBy must be a list", x.Line)
				}
				tr.seps = []string{}
				for _, s := range x.Content {
					switch s.Value {
					case "caseChange", "dash", "dot", "slash", "space", "underscore":
						tr.seps = append(tr.seps, s.Value)
					default:
						return nil, fmt.Errorf("line %d: separator %q: expected caseChange, dash, dot, slash, space or underscore", s.Line, s.Value)
					}
				}
			default:
				return nil, fmt.Errorf("line %d: unknown key %q in %s (transform %s)", a[0].Line, k, tr.op, tr.name)
			}
		}
		if tr.source == "" {
			return nil, fmt.Errorf("line %d: transform %s needs a source", p[1].Line, tr.name)
		}
		switch tr.op {
		case "substring":
		case "replace":
			if re == nil || by == nil {
				return nil, fmt.Errorf("line %d: replace needs replace and by (transform %s)", p[1].Line, tr.name)
			}
			if tr.re, err = regexp.Compile(*re); err != nil {
				return nil, fmt.Errorf("line %d: transform %s: %v", p[1].Line, tr.name, err)
			}
			tr.by = *by
		case "convert":
			if toCase == nil {
				return nil, fmt.Errorf("line %d: convert needs toCase (transform %s)", p[1].Line, tr.name)
			}
			switch *toCase {
			case "lowerCase", "upperCase", "capitalize", "camelCase", "snakeCase", "kebabCase", "pascalCase":
			default:
				return nil, fmt.Errorf("line %d: toCase %q: expected lowerCase, upperCase, capitalize, camelCase, snakeCase, kebabCase or pascalCase", p[1].Line, *toCase)
			}
			tr.toCase = *toCase
		case "rewrite":
			if !haveRewriters {
				return nil, fmt.Errorf("line %d: rewrite needs rewriters (transform %s)", p[1].Line, tr.name)
			}
		default:
			return nil, fmt.Errorf("line %d: transform %s: unknown %q (known: substring, replace, convert, rewrite)", p[1].Line, tr.name, tr.op)
		}
		out = append(out, tr)
	}
	return out, nil
}

// derive computes the rule's transforms for match m of t, each after the
// transforms its source names.
func (r *Rule) derive(t *syntax.Tree, m *Match, enclosing []Capture) []Derived {
	if len(r.transforms) == 0 {
		return nil
	}
	done := map[string]*Derived{}
	var out []Derived
	var get func(k int) Derived
	get = func(k int) Derived {
		tr := &r.transforms[k]
		if d := done[tr.name]; d != nil {
			return *d
		}
		done[tr.name] = &Derived{Name: tr.name} // a cycle reads as empty
		var src Derived
		found := false
		if tr.op == "rewrite" {
			for _, v := range m.Vars {
				if v.Name == tr.source && v.Multi == tr.multi && v.Start >= 0 {
					d := Derived{Name: tr.name, Text: tr.rewrite(t, v.Nodes, r.rewriters, enclosing), Indent: indentAt(t.Src, v.Start)}
					done[tr.name] = &d
					return d
				}
			}
			return Derived{Name: tr.name}
		}
		if !tr.multi {
			for j := range r.transforms {
				if r.transforms[j].name == tr.source && j != k {
					src, found = get(j), true
					break
				}
			}
		}
		if !found {
			for _, v := range m.Vars {
				if v.Name == tr.source && v.Multi == tr.multi && v.Start >= 0 {
					src = Derived{Text: string(v.Bytes(t.Src)), Indent: indentAt(t.Src, v.Start)}
					break
				}
			}
		}
		d := Derived{Name: tr.name, Text: tr.apply(src.Text), Indent: src.Indent}
		done[tr.name] = &d
		return d
	}
	for k := range r.transforms {
		out = append(out, get(k))
	}
	return out
}

func (tr *transform) apply(s string) string {
	switch tr.op {
	case "substring":
		cs := []rune(s)
		n := len(cs)
		at := func(p *int, dft int) int {
			c := dft
			if p != nil {
				c = *p
			}
			switch {
			case c >= n:
				return n
			case c >= 0:
				return c
			case n+c < 0:
				return 0
			}
			return n + c
		}
		a, b := at(tr.start, 0), at(tr.end, n)
		if a > b || a >= n {
			return ""
		}
		return string(cs[a:b])
	case "replace":
		return tr.re.ReplaceAllString(s, tr.by)
	}
	switch tr.toCase {
	case "lowerCase":
		return lowerFull(s)
	case "upperCase":
		return upperFull(s)
	case "capitalize":
		return capitalize(s)
	}
	words := splitWords(s, tr.seps)
	var b strings.Builder
	for k, w := range words {
		switch tr.toCase {
		case "camelCase":
			if k == 0 {
				b.WriteString(lowerFull(w))
			} else {
				b.WriteString(capitalize(w))
			}
		case "pascalCase":
			b.WriteString(capitalize(w))
		case "snakeCase", "kebabCase":
			if k > 0 {
				b.WriteByte(map[string]byte{"snakeCase": '_', "kebabCase": '-'}[tr.toCase])
			}
			b.WriteString(lowerFull(w))
		}
	}
	return b.String()
}

// capitalize upper-cases the first character.
func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return upperFull(string(r)) + s[n:]
}

// Unicode's unconditional case mappings to more than one character, which
// Go's per-rune mapping lacks and ast-grep's (Rust's) applies.
var (
	upperSpecial = map[rune]string{'ß': "SS", 'ﬀ': "FF", 'ﬁ': "FI", 'ﬂ': "FL", 'ﬃ': "FFI", 'ﬄ': "FFL", 'ﬅ': "ST", 'ﬆ': "ST",
		'ŉ': "\u02bcN", 'ǰ': "J\u030c", 'ΐ': "\u0399\u0308\u0301", 'ΰ': "\u03a5\u0308\u0301", 'և': "\u0535\u0552",
		'ẖ': "H\u0331", 'ẗ': "T\u0308", 'ẘ': "W\u030a", 'ẙ': "Y\u030a", 'ẚ': "A\u02be"}
	lowerSpecial = map[rune]string{'İ': "i\u0307"}
)

// upperFull and lowerFull change case as Rust's to_uppercase and
// to_lowercase do (the multi-character mappings included).
func upperFull(s string) string { return mapFull(s, upperSpecial, strings.ToUpper) }
func lowerFull(s string) string { return mapFull(s, lowerSpecial, strings.ToLower) }

func mapFull(s string, special map[rune]string, each func(string) string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { _, ok := special[r]; return ok }) {
		return each(s)
	}
	var b strings.Builder
	for _, r := range s {
		if m, ok := special[r]; ok {
			b.WriteString(m)
		} else {
			b.WriteString(each(string(r)))
		}
	}
	return b.String()
}

// splitWords cuts s into words as ast-grep's convert does: at the
// separator characters (dropped), and, with caseChange, before an
// upper-case letter that follows a lower-case one and before the last of
// a run of capitals followed by a lower-case letter ("XMLHttp": XML,
// Http). seps nil means every separator.
func splitWords(s string, seps []string) []string {
	delim := map[rune]bool{}
	byCase := seps == nil
	if seps == nil {
		seps = []string{"dash", "dot", "slash", "space", "underscore"}
	}
	for _, x := range seps {
		switch x {
		case "caseChange":
			byCase = true
		case "dash":
			delim['-'] = true
		case "dot":
			delim['.'] = true
		case "slash":
			delim['/'] = true
		case "space":
			delim[' '] = true
		case "underscore":
			delim['_'] = true
		}
	}
	const (
		lower = iota
		oneUpper
		multiUpper
		ignoreCase
	)
	state := lower
	if !byCase {
		state = ignoreCase
	}
	var words []string
	emit := func(w string) {
		if w != "" {
			words = append(words, w)
		}
	}
	left, right := 0, 0
	var last rune
	for _, c := range s {
		n := utf8.RuneLen(c)
		switch {
		case delim[c]:
			emit(s[left:right])
			left = right + n
			right = left
			if state != ignoreCase {
				state = lower
			}
			continue
		case state == lower && isUpper(c):
			emit(s[left:right])
			left = right
			right = left + n
			state = oneUpper
			continue
		case state == multiUpper && isLower(c):
			cut := right - utf8.RuneLen(last)
			emit(s[left:cut])
			left = cut
			right += n
			state = lower
			continue
		}
		right += n
		switch {
		case state == ignoreCase:
		case isLower(c):
			state = lower
		case state == lower:
			state = oneUpper
		default:
			state, last = multiUpper, c
		}
	}
	if left < right {
		emit(s[left:right])
	}
	return words
}

// isUpper and isLower are Unicode's Uppercase and Lowercase properties
// (Rust's is_uppercase and is_lowercase): the letter categories and the
// Other_ ones (Ⓐ, Ⅰ, ª …).
func isUpper(c rune) bool { return unicode.IsUpper(c) || unicode.Is(unicode.Other_Uppercase, c) }
func isLower(c rune) bool { return unicode.IsLower(c) || unicode.Is(unicode.Other_Lowercase, c) }

// fixRange is the range a fix replaces for the match of node i: the
// node, from the start of the sibling before it that expandStart finds to
// the end of the one after it that expandEnd finds. Siblings that are
// only white space (the line ends some grammars keep as tokens between
// statements) are passed over.
func (f *Fix) fixRange(t *syntax.Tree, m *Match) Span {
	i := m.Node
	n := &t.Nodes[i]
	sp := Span{int(n.Start), int(n.End)}
	if f.expandEnd != nil {
		var next []int32
		for s := n.Next; s >= 0; s = t.Nodes[s].Next {
			next = append(next, s)
		}
		if j := f.expandEnd.find(t, m, next); j >= 0 {
			sp.End = int(t.Nodes[j].End)
		}
	}
	if f.expandStart != nil && n.Parent >= 0 {
		var prev []int32
		for c := t.FirstChild(n.Parent); c >= 0 && c != i; c = t.Nodes[c].Next {
			prev = append(prev, c)
		}
		for a, b := 0, len(prev)-1; a < b; a, b = a+1, b-1 {
			prev[a], prev[b] = prev[b], prev[a]
		}
		if j := f.expandStart.find(t, m, prev); j >= 0 {
			sp.Start = int(t.Nodes[j].Start)
		}
	}
	return sp
}

// find is the first of the siblings (nearest first) that the expansion
// reaches and matches, or -1; the match's captures bind as they do in
// the rule (a metavariable there must be the same code).
func (x *fixExpansion) find(t *syntax.Tree, m *Match, sibs []int32) int32 {
	e := &env{t: t, budget: MaxSteps}
	for _, v := range m.Vars {
		e.bindings = append(e.bindings, binding{name: v.Name, multi: v.Multi, nodes: v.Nodes})
	}
	base := e.mark()
	for _, s := range sibs {
		if len(strings.TrimSpace(string(t.Text(s)))) == 0 && t.Nodes[s].End > t.Nodes[s].Start {
			continue
		}
		e.undo(base)
		if x.rule.match(t, s, e) {
			return s
		}
		if x.stop != nil {
			e.undo(base)
			if x.stop.match(t, s, e) {
				return -1
			}
		} else if !x.toEnd {
			return -1
		}
	}
	return -1
}
