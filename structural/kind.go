package structural

import (
	"fmt"

	"github.com/evgrep/evgrep/syntax"
)

// KindMatcher matches nodes of one named kind of a grammar.
type KindMatcher struct {
	Name string
	id   uint16
}

// NewKindMatcher looks kind up in lang's grammar; an unknown kind is an
// error naming it.
func NewKindMatcher(lang *Lang, kind string) (*KindMatcher, error) {
	id, ok := syntax.KindID(lang.Name, kind)
	if !ok {
		return nil, fmt.Errorf("%s has no node kind %q", lang.Name, kind)
	}
	return &KindMatcher{Name: kind, id: id}, nil
}

func (k *KindMatcher) match(t *syntax.Tree, i int32, _ *env) bool { return t.Nodes[i].Kind == k.id }

func (k *KindMatcher) kinds() []uint16 { return []uint16{k.id} }

// allOf matches when every matcher matches the node (bindings of all).
type allOf []Matcher

// All returns a Matcher that needs every one of ms to match.
func All(ms ...Matcher) Matcher {
	if len(ms) == 1 {
		return ms[0]
	}
	return allOf(ms)
}

func (a allOf) match(t *syntax.Tree, i int32, e *env) bool {
	m := e.mark()
	for _, x := range a {
		if !x.match(t, i, e) {
			e.undo(m)
			return false
		}
	}
	return true
}

func (a allOf) kinds() []uint16 {
	var out []uint16
	for _, x := range a {
		ks := x.kinds()
		if ks == nil {
			continue
		}
		if out == nil {
			out = ks
			continue
		}
		var both []uint16
		for _, k := range out {
			for _, k2 := range ks {
				if k == k2 {
					both = append(both, k)
				}
			}
		}
		out = both
		if out == nil {
			out = []uint16{}
		}
	}
	return out
}
