package rank

import (
	"bytes"
	"sort"

	"github.com/evgrep/evgrep/internal/textpos"
	"github.com/evgrep/evgrep/syntax"
)

// Chunk is one unit of retrieval: lines StartLine..EndLine (1-based,
// inclusive) of a file, which are exactly bytes StartByte..EndByte.
type Chunk struct {
	StartLine, EndLine int
	StartByte, EndByte int
	// Kind is the declaration's kind (syntax.Decl.Kind), or "lines" for a
	// line window outside any declaration or in a file without a parser.
	Kind string
	// Name is the declared name; "" for a line window.
	Name string
	// Context is the signature of the container a member belongs to
	// ("type Server struct", "impl Router"), or "".
	Context string
	// Cont is true for the second and later windows of a declaration too
	// large for one chunk: it carries the declaration's Kind and Name
	// but does not define it.
	Cont bool
}

// KindLines is the Kind of a line-window chunk.
const KindLines = "lines"

// Split cuts src, the content of the file at path, into chunks that cover
// every non-blank line once, in source order: the file's top-level
// declarations (with their attached comments) when a tree-sitter parser
// knows its language (Go is cut with go/scanner, or go/parser when that
// cannot, for speed: the same units, Go's methods being top-level); a declaration over MaxChunkChars is split into the
// part before its first member, each member (with the container's
// signature as Context) and the gaps between; what is still too large,
// and everything outside declarations, becomes windows of at most
// WindowLines lines and MaxChunkChars bytes (a longer single line is one
// window). In C and C++, runs of one-line declarations of one kind are
// then joined (groupLines).
func Split(path string, src []byte) []Chunk {
	lt := textpos.NewLines(src)
	s := splitter{src: src, lt: lt, lines: lt.Starts()}
	var decls []syntax.Decl
	lang, ok := syntax.Detect(path, src[:min(len(src), 4096)])
	if ok && len(src) <= syntax.MaxSource {
		var fast bool
		if lang == syntax.Go {
			if decls, fast = goScanDecls(src, s.lines); !fast {
				decls, fast = goDecls(src)
			}
		}
		if !fast {
			if d, err := syntax.OutlineNested(lang, src); err == nil {
				decls = d
			}
		}
	}
	sort.SliceStable(decls, func(i, j int) bool { return decls[i].StartByte < decls[j].StartByte })
	cur := 0
	for i := range decls {
		d := &decls[i]
		if d.StartByte < cur || d.EndByte > len(src) || d.EndByte <= d.StartByte {
			continue
		}
		dd := *d
		dd.StartByte = s.leadingComments(cur, d.StartByte)
		s.windows(cur, dd.StartByte, KindLines, "", "")
		s.decl(&dd, "")
		cur = d.EndByte
	}
	s.windows(cur, len(src), KindLines, "", "")
	if ok && (lang == syntax.C || lang == syntax.Cpp) {
		s.groupLines()
	}
	return s.out
}

type splitter struct {
	src   []byte
	lt    *textpos.Lines
	lines []int // byte offset of each line's start (lt.Starts())
	out   []Chunk
}

// decl emits the chunks of one declaration.
func (s *splitter) decl(d *syntax.Decl, context string) {
	if d.EndByte-d.StartByte <= MaxChunkChars {
		s.add(Chunk{StartByte: d.StartByte, EndByte: d.EndByte, Kind: d.Kind, Name: d.Name, Context: context})
		return
	}
	if len(d.Children) == 0 {
		s.windows(d.StartByte, d.EndByte, d.Kind, d.Name, context)
		return
	}
	cur := d.StartByte
	first := true
	for i := range d.Children {
		c := &d.Children[i]
		if c.StartByte < cur || c.EndByte > d.EndByte || c.EndByte <= c.StartByte {
			continue
		}
		cc := *c
		cc.StartByte = s.leadingComments(cur, c.StartByte)
		if first {
			// The container's head (its comments and signature) defines it.
			s.windows(cur, cc.StartByte, d.Kind, d.Name, context)
			first = false
		} else {
			s.cont(cur, cc.StartByte, d.Kind, d.Name, context)
		}
		s.decl(&cc, d.Signature)
		cur = c.EndByte
	}
	if first {
		s.windows(cur, d.EndByte, d.Kind, d.Name, context)
		return
	}
	s.cont(cur, d.EndByte, d.Kind, d.Name, context)
}

// leadingComments is where the declaration that starts at byte start
// (a line start) begins once the comment, attribute and annotation lines
// right above it (no blank line between) are its own, not before from:
// tree-sitter grammars but Go's keep a doc comment as a sibling node, so
// without this a member's doc would fall into the gap before it.
func (s *splitter) leadingComments(from, start int) int {
	l := s.lineOf(start) - 1 // 0-based index of the declaration's first line
	for l > 0 && l < len(s.lines) && s.lines[l-1] >= from {
		if !commentLine(s.src[s.lines[l-1]:s.lines[l]]) {
			break
		}
		l--
	}
	if l < len(s.lines) && s.lines[l] < start {
		return s.lines[l]
	}
	return start
}

// commentLine reports whether a line is a comment (//, /*, *, #, --), an
// attribute (#[) or an annotation or decorator (@); a C preprocessor line
// is not.
func commentLine(line []byte) bool {
	t := bytes.TrimSpace(line)
	switch {
	case len(t) == 0:
		return false
	case bytes.HasPrefix(t, []byte("//")), bytes.HasPrefix(t, []byte("/*")), t[0] == '*', bytes.HasPrefix(t, []byte("--")), t[0] == '@':
		return true
	case t[0] == '#':
		for _, pp := range preprocessor {
			if bytes.HasPrefix(t[1:], []byte(pp)) {
				return false
			}
		}
		return true
	}
	return false
}

// preprocessor are the C directives after "#" (written without a space
// after it, as projects write them: "# if" stays a Ruby or Python
// comment), and a shebang.
var preprocessor = []string{"include", "define", "if", "endif", "else", "elif", "undef", "pragma", "import", "error", "line", "!"}

// cont emits windows of a declaration's later part (Cont set).
func (s *splitter) cont(from, to int, kind, name, context string) {
	n := len(s.out)
	s.windows(from, to, kind, name, context)
	for i := n; i < len(s.out); i++ {
		s.out[i].Cont = true
	}
}

// windows emits line windows over the whole lines of src[from:to]; blank
// windows are dropped. The first window of a declaration defines it.
func (s *splitter) windows(from, to int, kind, name, context string) {
	if from >= to {
		return
	}
	first := true
	l := s.lineOf(from)
	for from < to {
		end, k := from, l
		for end < to && k-l < WindowLines {
			next := to
			if k < len(s.lines) {
				next = min(s.lines[k], to) // start of line k+1 (0-based k)
			}
			if end > from && next-from > MaxChunkChars {
				break
			}
			end = next
			k++
		}
		if len(bytes.TrimSpace(s.src[from:end])) > 0 {
			s.add(Chunk{StartByte: from, EndByte: end, Kind: kind, Name: name, Context: context, Cont: !first && kind != KindLines})
			first = false
		}
		from, l = end, k
	}
}

// add fills in the lines of c and appends it.
func (s *splitter) add(c Chunk) {
	c.StartLine = s.lineOf(c.StartByte)
	last := c.EndByte - 1
	if last < c.StartByte {
		last = c.StartByte
	}
	c.EndLine = s.lineOf(last)
	s.out = append(s.out, c)
}

// lineOf is the 1-based line of byte offset off.
func (s *splitter) lineOf(off int) int { return s.lt.Line(off) }
