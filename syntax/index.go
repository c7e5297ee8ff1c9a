package syntax

import (
	"fmt"
	"unicode/utf8"
)

// index is what a parse leaves behind: every declaration of a source in
// pre-order (a parent before its members), plus the line spans of syntax
// errors. It holds no tree-sitter memory and is immutable once built, so
// the cache shares it between goroutines.
type index struct {
	recs  []rec
	errs  []span
	lines int // number of lines in the source
}

// rec is one declaration of an index.
type rec struct {
	Decl          // Header and Children unset
	parent    int // index in recs of the enclosing declaration, -1 at top level
	container bool
	hasErr    bool  // a syntax error lies inside the declaration
	header    *Decl // the container's header (containers only)
}

// span is a 1-based inclusive line range.
type span struct{ start, end int }

// enclosing answers Enclosing for one line.
func (ix *index) enclosing(line int) (Decl, error) {
	if line < 1 || line > ix.lines {
		return Decl{}, fmt.Errorf("%w: line %d is outside 1..%d", ErrNoDecl, line, ix.lines)
	}
	best := -1
	for i := range ix.recs {
		r := &ix.recs[i]
		if r.StartLine > line || r.EndLine < line {
			continue
		}
		// Smallest extent wins; on a tie the later one (the deeper one in
		// pre-order) wins.
		if best < 0 || r.EndByte-r.StartByte <= ix.recs[best].EndByte-ix.recs[best].StartByte {
			best = i
		}
	}
	if best < 0 {
		for _, e := range ix.errs {
			if e.start <= line && line <= e.end {
				return Decl{}, fmt.Errorf("%w at line %d", ErrSyntax, line)
			}
		}
		return Decl{}, ErrNoDecl
	}
	r := &ix.recs[best]
	if r.hasErr {
		return Decl{}, fmt.Errorf("%w in %s %s (lines %d-%d)", ErrSyntax, r.Kind, r.Name, r.StartLine, r.EndLine)
	}
	d := r.Decl
	if p := r.parent; p >= 0 && ix.recs[p].container && ix.recs[p].header != nil {
		h := *ix.recs[p].header
		d.Header = &h
	}
	return d, nil
}

// outline answers Outline: top-level declarations with the direct members
// of the containers among them. The slices are fresh on every call.
func (ix *index) outline() []Decl {
	top := make([]Decl, 0, 16)
	pos := make(map[int]int) // rec index of a top-level container → its place in top
	for i := range ix.recs {
		r := &ix.recs[i]
		if r.parent < 0 {
			if r.container {
				pos[i] = len(top)
			}
			top = append(top, r.Decl)
			continue
		}
		if t, ok := pos[r.parent]; ok {
			top[t].Children = append(top[t].Children, r.Decl)
		}
	}
	return top
}

// nested answers OutlineNested. The records are in pre-order, so walking
// them backwards completes every declaration's members before the
// declaration itself is attached to its parent; the members, gathered
// backwards, are reversed then.
func (ix *index) nested() []Decl {
	decls := make([]Decl, len(ix.recs))
	for i := range ix.recs {
		decls[i] = ix.recs[i].Decl
	}
	var top []Decl
	for i := len(decls) - 1; i >= 0; i-- {
		d := decls[i]
		reverseDecls(d.Children)
		if p := ix.recs[i].parent; p >= 0 && p < i {
			decls[p].Children = append(decls[p].Children, d)
		} else {
			top = append(top, d)
		}
	}
	reverseDecls(top)
	return top
}

func reverseDecls(ds []Decl) {
	for i, j := 0, len(ds)-1; i < j; i, j = i+1, j-1 {
		ds[i], ds[j] = ds[j], ds[i]
	}
}

// collapse renders b on one line: runs of white space become one space,
// leading and trailing space go, invalid UTF-8 becomes U+FFFD, and the
// result is cut at MaxSignature bytes on a rune boundary, ending in "…"
// when cut.
func collapse(b []byte) string {
	out := make([]byte, 0, min(len(b), MaxSignature+8))
	space := false
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		b = b[n:]
		switch r {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			space = len(out) > 0
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = utf8.AppendRune(out, r)
		if len(out) > MaxSignature {
			break
		}
	}
	if len(out) <= MaxSignature {
		return string(out)
	}
	const ellipsis = "…"
	cut := MaxSignature - len(ellipsis)
	for cut > 0 && !utf8.RuneStart(out[cut]) {
		cut--
	}
	return string(out[:cut]) + ellipsis
}
