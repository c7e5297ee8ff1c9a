package astsearch

import (
	"github.com/evgrep/evgrep/internal/textpos"
	"github.com/evgrep/evgrep/structural"
)

// JSONMatch is one match as --json prints it: byte offsets (0-based, end
// exclusive), 1-based lines and 1-based UTF-16 columns, the matched text
// and the captured metavariables.
type JSONMatchObj struct {
	Path      string         `json:"path"`
	Rule      string         `json:"rule,omitempty"`
	Start     int            `json:"start"`
	End       int            `json:"end"`
	Line      int            `json:"line"`
	Column    int            `json:"column"`
	EndLine   int            `json:"end_line"`
	EndColumn int            `json:"end_column"`
	Text      string         `json:"text"`
	Vars      map[string]any `json:"vars,omitempty"`
}

// JSONCapture is one captured node (or the span of a captured list).
type JSONCapture struct {
	Text   string `json:"text"`
	Start  int    `json:"start"`
	End    int    `json:"end"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// JSONMatch builds the --json object of match m of the source src (whose
// lines are indexed by lines); it needs no tree.
func JSONMatch(path string, src []byte, lines *textpos.Mapper, m *structural.Match) *JSONMatchObj {
	s, e := lines.Position(m.Start), lines.Position(m.End)
	o := &JSONMatchObj{
		Path: path, Rule: m.Rule, Start: m.Start, End: m.End,
		Line: s.Line, Column: s.Column16, EndLine: e.Line, EndColumn: e.Column16,
		Text: string(src[m.Start:m.End]),
	}
	for _, c := range m.Vars {
		if o.Vars == nil {
			o.Vars = map[string]any{}
		}
		if !c.Multi {
			o.Vars["$"+c.Name] = capture(src, lines, c.Start, c.End)
			continue
		}
		list := []JSONCapture{}
		for _, sp := range c.List {
			list = append(list, capture(src, lines, sp.Start, sp.End))
		}
		o.Vars["$$$"+c.Name] = list
	}
	return o
}

func capture(src []byte, lines *textpos.Mapper, s, e int) JSONCapture {
	p := lines.Position(s)
	return JSONCapture{Text: string(src[s:e]), Start: s, End: e, Line: p.Line, Column: p.Column16}
}
