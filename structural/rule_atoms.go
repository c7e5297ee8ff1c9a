package structural

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/evgrep/evgrep/syntax"
)

// nthChild matches a node by its position among its parent's named
// children (1-based), those that match ofRule when it is set, counted
// from the end when reverse is: position step*n+offset for some n >= 0.
type nthChild struct {
	step, offset int
	reverse      bool
	ofRule       Matcher
}

func (r *nthChild) kinds() []uint16 { return nil }

func (r *nthChild) match(t *syntax.Tree, i int32, e *env) bool {
	e.budget--
	p := t.Nodes[i].Parent
	if p < 0 {
		return false
	}
	idx, n := 0, 0
	for c := t.FirstChild(p); c >= 0; c = t.Nodes[c].Next {
		if !t.Nodes[c].Named() {
			continue
		}
		if r.ofRule != nil {
			m := e.mark()
			ok := r.ofRule.match(t, c, e)
			e.undo(m)
			if !ok {
				continue
			}
		}
		n++
		if c == i {
			idx = n
		}
	}
	if idx == 0 {
		return false
	}
	if r.reverse {
		idx = n - idx + 1
	}
	if r.step == 0 {
		return idx == r.offset
	}
	d := idx - r.offset
	return d%r.step == 0 && d/r.step >= 0
}

// parseNth reads nthChild: a number, an "An+B" string or an object with
// position, ofRule and reverse.
func (rp *ruleParser) parseNth(v *yaml.Node, depth int) (Matcher, error) {
	r := &nthChild{}
	pos := v
	if v.Kind == yaml.MappingNode {
		kv, _ := mapping(v, "nthChild")
		pos = nil
		for _, p := range kv {
			switch p[0].Value {
			case "position":
				pos = p[1]
			case "reverse":
				b, err := strconv.ParseBool(p[1].Value)
				if err != nil || p[1].Kind != yaml.ScalarNode {
					return nil, fmt.Errorf("line %d: nthChild.reverse must be true or false", p[1].Line)
				}
				r.reverse = b
			case "ofRule":
				m, err := rp.object(p[1], depth+1)
				if err != nil {
					return nil, err
				}
				r.ofRule = m
			default:
				return nil, fmt.Errorf("line %d: unknown key %q in nthChild (known: position, ofRule, reverse)", p[0].Line, p[0].Value)
			}
		}
		if pos == nil {
			return nil, fmt.Errorf("line %d: nthChild needs a position", v.Line)
		}
	}
	if pos.Kind != yaml.ScalarNode {
		return nil, fmt.Errorf("line %d: nthChild's position must be a number or an An+B string", pos.Line)
	}
	var err error
	if pos.Tag == "!!int" {
		r.offset, err = strconv.Atoi(pos.Value)
		if err != nil || r.offset < 0 {
			return nil, fmt.Errorf("line %d: nthChild %q: not a position", pos.Line, pos.Value)
		}
		return r, nil
	}
	if r.step, r.offset, err = parseAnB(pos.Value); err != nil {
		return nil, fmt.Errorf("line %d: nthChild %q: %v", pos.Line, pos.Value, err)
	}
	return r, nil
}

// parseAnB reads CSS's An+B notation (spaces allowed): "3", "2n+1",
// "-n+3", "n", "+2n-1".
func parseAnB(s string) (a, b int, err error) {
	s = strings.ReplaceAll(s, " ", "")
	num := func(x string, empty int) (int, error) {
		switch x {
		case "", "+":
			return empty, nil
		case "-":
			return -empty, nil
		}
		for k := 0; k < len(x); k++ {
			if !(x[k] >= '0' && x[k] <= '9' || k == 0 && (x[k] == '+' || x[k] == '-')) {
				return 0, fmt.Errorf("unexpected %q", x[k])
			}
		}
		return strconv.Atoi(x)
	}
	n := strings.IndexByte(s, 'n')
	if n < 0 {
		if s == "" {
			return 0, 0, fmt.Errorf("empty")
		}
		b, err = num(s, 0)
		return 0, b, err
	}
	if a, err = num(s[:n], 1); err != nil {
		return 0, 0, err
	}
	rest := s[n+1:]
	if rest == "" {
		return a, 0, nil
	}
	if rest[0] != '+' && rest[0] != '-' {
		return 0, 0, fmt.Errorf("unexpected %q", rest[0])
	}
	if len(rest) == 1 {
		return 0, 0, fmt.Errorf("no number after %q", rest)
	}
	b, err = num(rest, 0)
	return a, b, err
}

// position is a 0-based line and a 0-based column in characters.
type position struct{ line, column int }

// rangeMatcher matches the node that starts and ends exactly at the
// given positions.
type rangeMatcher struct{ start, end position }

func (r *rangeMatcher) kinds() []uint16 { return nil }

func (r *rangeMatcher) match(t *syntax.Tree, i int32, e *env) bool {
	e.budget--
	n := &t.Nodes[i]
	return e.position(int(n.Start)) == r.start && e.position(int(n.End)) == r.end
}

// position is the line and character column of a byte offset of the
// tree's source.
func (e *env) position(off int) position {
	if e.lineStarts == nil {
		e.lineStarts = []int{0}
		for k, c := range e.t.Src {
			if c == '\n' {
				e.lineStarts = append(e.lineStarts, k+1)
			}
		}
	}
	l := sort.SearchInts(e.lineStarts, off+1) - 1
	return position{l, utf8.RuneCount(e.t.Src[e.lineStarts[l]:off])}
}

func parseRange(v *yaml.Node) (Matcher, error) {
	kv, err := mapping(v, "range")
	if err != nil {
		return nil, err
	}
	r := &rangeMatcher{}
	seen := 0
	for _, p := range kv {
		var dst *position
		switch p[0].Value {
		case "start":
			dst = &r.start
		case "end":
			dst = &r.end
		default:
			return nil, fmt.Errorf("line %d: unknown key %q in range (known: start, end)", p[0].Line, p[0].Value)
		}
		seen++
		pkv, err := mapping(p[1], "range."+p[0].Value)
		if err != nil {
			return nil, err
		}
		got := 0
		for _, q := range pkv {
			x, err := strconv.Atoi(q[1].Value)
			if err != nil || x < 0 || q[1].Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d: range %s.%s must be a number", q[1].Line, p[0].Value, q[0].Value)
			}
			switch q[0].Value {
			case "line":
				dst.line = x
			case "column":
				dst.column = x
			default:
				return nil, fmt.Errorf("line %d: unknown key %q in a range position (known: line, column)", q[0].Line, q[0].Value)
			}
			got++
		}
		if got != 2 {
			return nil, fmt.Errorf("line %d: range.%s needs line and column", p[1].Line, p[0].Value)
		}
	}
	if seen != 2 {
		return nil, fmt.Errorf("line %d: range needs start and end", v.Line)
	}
	return r, nil
}

// utilRef is `matches: NAME`, a utility rule of the rule document; its
// rule is set once the utility is compiled (it may refer to itself
// through a relational rule).
type utilRef struct {
	name string
	m    Matcher
}

func (u *utilRef) kinds() []uint16 { return nil }

func (u *utilRef) match(t *syntax.Tree, i int32, e *env) bool {
	if e.utilDepth >= MaxUtilDepth {
		e.budget = -1 // deeper than any tree: give up on the file
		return false
	}
	e.utilDepth++
	ok := u.m.match(t, i, e)
	e.utilDepth--
	return ok
}

// utility compiles (once) the utility rule name for `matches`. A utility
// that reaches itself through matches alone, with no relational rule
// between, would never end, and is an error.
func (rp *ruleParser) utility(name string, line int, depth int) (Matcher, error) {
	for _, p := range rp.path {
		if p == name {
			return nil, fmt.Errorf("line %d: utility rule %q matches itself with no relational rule between (a cycle)", line, name)
		}
	}
	if u, ok := rp.compiled[name]; ok {
		return u, nil
	}
	n, ok := rp.utils[name]
	if !ok {
		return nil, fmt.Errorf("line %d: matches %q: no such utility rule (utils)", line, name)
	}
	u := &utilRef{name: name}
	rp.compiled[name] = u
	rp.path = append(rp.path, name)
	m, err := rp.object(n, depth+1)
	rp.path = rp.path[:len(rp.path)-1]
	if err != nil {
		delete(rp.compiled, name)
		return nil, fmt.Errorf("utility %q: %v", name, err)
	}
	u.m = m
	return u, nil
}
