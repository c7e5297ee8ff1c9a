package structural

import (
	"strings"

	"github.com/evgrep/evgrep/syntax"
)

// Expand substitutes the captures of m (a match in t) into template, as
// ast-grep's rewrite does: `$NAME` and `$$NAME` become the captured
// node's text, `$$$NAME` the source from the first to the last node of the
// list; a metavariable the match did not bind becomes empty.
//
// Multi-line text is re-indented by ast-grep's rule (only spaces count as
// indentation; a line's indentation is its leading spaces, looked for at
// most IndentLookBack bytes back):
//   - a multi-line capture keeps its lines' indentation relative to the
//     line it starts on, moved to the indentation of the line where the
//     template names it (lines with less indentation than needs removing
//     keep theirs);
//   - every line of the expansion after its first gets the indentation of
//     the line where the match starts.
//
// Unlike ast-grep, a line that begins inside a string literal of the
// source (a multi-line string, raw string, heredoc or text block) is never
// re-indented, as that would change the literal's value.
func Expand(t *syntax.Tree, m *Match, template string) string {
	var out expansion
	tb := []byte(template)
	for i := 0; i < len(template); {
		c := template[i]
		if c != '$' {
			out.b = append(out.b, c)
			i++
			continue
		}
		j := i
		for j < len(template) && template[j] == '$' && j-i < 3 {
			j++
		}
		k := j
		for k < len(template) && (template[k] >= 'A' && template[k] <= 'Z' || template[k] == '_' || k > j && template[k] >= '0' && template[k] <= '9') {
			k++
		}
		if k == j { // a `$` not followed by a name: literal
			out.b = append(out.b, template[i:j]...)
			i = j
			continue
		}
		name, multi := template[j:k], j-i == 3
		at := indentAt(tb, i)
		if d := derived(m, name); !multi && d != nil {
			// A transform's value loses the indentation of the capture
			// it came from (where a line has it) and takes the
			// template's, every line after the first (ast-grep's way
			// for transforms, which indents even a blank line).
			pad := strings.Repeat(" ", at)
			for li, line := range strings.Split(d.Text, "\n") {
				if li > 0 {
					out.b = append(out.b, '\n')
					out.b = append(out.b, pad...)
					line = strings.TrimPrefix(line, strings.Repeat(" ", d.Indent))
				}
				out.b = append(out.b, line...)
			}
			i = k
			continue
		}
		for vi := range m.Vars {
			v := &m.Vars[vi]
			if v.Name == name && v.Multi == multi {
				out.capture(t, v, at)
				break
			}
		}
		i = k
	}
	out.indent(indentAt(t.Src, m.Start))
	return string(out.b)
}

// derived is the transform of m named name, or nil.
func derived(m *Match, name string) *Derived {
	if m.Fixed == nil {
		return nil
	}
	for k := range m.Fixed.Derived {
		if m.Fixed.Derived[k].Name == name {
			return &m.Fixed.Derived[k]
		}
	}
	return nil
}

// expansion is a rewrite being built: its bytes and the offsets of the
// line starts in them that lie inside a string literal of the source
// (never re-indented).
type expansion struct {
	b    []byte
	keep []int
}

// capture appends the text of capture v, re-indented from the indentation
// of its first line in the source to want.
func (x *expansion) capture(t *syntax.Tree, v *Capture, want int) {
	text := v.Bytes(t.Src)
	if strings.IndexByte(string(text), '\n') < 0 {
		x.b = append(x.b, text...)
		return
	}
	x.lines(string(text), indentAt(t.Src, v.Start), want, v.Start, stringSpans(t, v))
}

// lines appends text, whose first line is indented by orig, re-indented
// to want; text is the source from offset pos, and its lines that begin
// inside one of the string literals lits are kept as they are.
func (x *expansion) lines(text string, orig, want, pos int, lits []Span) {
	for li, line := range strings.Split(text, "\n") {
		start := pos
		pos += len(line) + 1
		if li > 0 {
			x.b = append(x.b, '\n')
			switch {
			case inSpans(lits, start):
				x.keep = append(x.keep, len(x.b))
			case want < orig:
				line = strings.TrimPrefix(line, strings.Repeat(" ", orig-want))
			case want > orig:
				x.b = append(x.b, strings.Repeat(" ", want-orig)...)
			}
		}
		x.b = append(x.b, line...)
	}
}

// indent adds n spaces after every newline of the expansion but those
// starting a line kept as it is.
func (x *expansion) indent(n int) {
	if n == 0 {
		return
	}
	pad := strings.Repeat(" ", n)
	b := make([]byte, 0, len(x.b))
	k := 0
	for i, c := range x.b {
		b = append(b, c)
		if c != '\n' {
			continue
		}
		for k < len(x.keep) && x.keep[k] < i+1 {
			k++
		}
		if k < len(x.keep) && x.keep[k] == i+1 {
			continue
		}
		b = append(b, pad...)
	}
	x.b = b
}

// indentAt is the indentation, in spaces, of the line holding offset off
// of src, as ast-grep reckons it: the leading spaces of that line (a tab
// ends them), 0 when the line starts more than IndentLookBack bytes
// before off (unless that is the start of src).
func indentAt(src []byte, off int) int {
	from := max(0, off-IndentLookBack)
	n := 0
	for i := off - 1; i >= from; i-- {
		switch src[i] {
		case '\n':
			return n
		case ' ':
			n++
		default:
			n = 0
		}
	}
	if from == 0 {
		return n
	}
	return 0
}

// stringSpans are the byte ranges of the multi-line string literals
// within capture v (or the one v lies in).
func stringSpans(t *syntax.Tree, v *Capture) []Span {
	if len(v.Nodes) == 0 {
		return nil
	}
	for p := t.Nodes[v.Nodes[0]].Parent; p >= 0; p = t.Nodes[p].Parent {
		if stringKind(t.Kind(p)) {
			n := &t.Nodes[p]
			return []Span{{int(n.Start), int(n.End)}}
		}
	}
	var out []Span
	var walk func(i int32)
	walk = func(i int32) {
		n := &t.Nodes[i]
		if stringKind(t.Kind(i)) {
			if strings.IndexByte(string(t.Src[n.Start:n.End]), '\n') >= 0 {
				out = append(out, Span{int(n.Start), int(n.End)})
			}
			return
		}
		for c := t.FirstChild(i); c >= 0; c = t.Nodes[c].Next {
			walk(c)
		}
	}
	for _, i := range v.Nodes {
		walk(i)
	}
	return out
}

// stringKind: a node kind that is a string literal (or part of one) in
// the grammars (string, string_literal, raw_string_literal,
// template_string, heredoc_body, text_block …), not a list of strings.
func stringKind(k string) bool {
	if k == "concatenated_string" {
		return false
	}
	return strings.Contains(k, "string") || strings.Contains(k, "heredoc") || strings.Contains(k, "nowdoc") || k == "text_block"
}

// inSpans: a line starting at offset p of the source begins inside one
// of the spans.
func inSpans(s []Span, p int) bool {
	for _, x := range s {
		if x.Start < p && p < x.End {
			return true
		}
	}
	return false
}
