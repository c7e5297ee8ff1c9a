package rank

import "strings"

// groupLines joins each run of one-line declarations of one kind on
// consecutive lines (a C file's #defines, prototypes, variables) into one
// chunk that declares each of their names ("A, B, C", as a Go const
// group lists them; defines reads such a list), at most WindowLines
// lines and MaxChunkChars bytes. Alone, each would be a chunk of a few
// tokens whose path and name pieces outweigh every function body in
// BM25 (vfprintf.c's ALT_FORM, ZERO_PAD, … or elf.h's thousands of
// constants, one chunk each).
func (s *splitter) groupLines() {
	out := s.out[:0]
	for i := 0; i < len(s.out); {
		c := s.out[i]
		j := i + 1
		if oneLineDecl(&c) {
			for j < len(s.out) && oneLineDecl(&s.out[j]) && s.out[j].Kind == c.Kind &&
				s.out[j].StartLine == s.out[j-1].EndLine+1 &&
				s.out[j].EndLine-c.StartLine < WindowLines && s.out[j].EndByte-c.StartByte <= MaxChunkChars {
				j++
			}
		}
		if j > i+1 {
			names := make([]string, 0, j-i)
			for k := i; k < j; k++ {
				if s.out[k].Name != "" {
					names = append(names, s.out[k].Name)
				}
			}
			c.Name = strings.Join(names, ", ")
			c.EndByte, c.EndLine = s.out[j-1].EndByte, s.out[j-1].EndLine
		}
		out = append(out, c)
		i = j
	}
	s.out = out
}

// oneLineDecl reports whether c is a whole one-line declaration that
// groupLines may join: a constant, macro, variable or function (in C a
// one-line function is nearly always a prototype).
func oneLineDecl(c *Chunk) bool {
	if c.Cont || c.StartLine != c.EndLine || c.Context != "" {
		return false
	}
	switch c.Kind {
	case "const", "macro", "var", "function":
		return true
	}
	return false
}
