package matcher

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error is a pattern error. Its text is what rg prints for the same
// pattern (without a trailing newline).
type Error struct {
	text string
}

func (e *Error) Error() string { return e.text }

type pos struct{ line, col int }

// position converts a byte offset into a 1-based line and column (columns
// count characters), as the Rust parser reports them.
func position(pat string, off int) pos {
	p := pos{1, 1}
	for i, r := range pat {
		if i >= off {
			break
		}
		if r == '\n' {
			p.line++
			p.col = 1
		} else {
			p.col++
		}
	}
	return p
}

// formatError renders a parse error the way the Rust regex crate (and so
// rg) does, including the caret lines under the pattern.
func formatError(pat string, e *parseError) error {
	if e.sp.start < 0 {
		return &Error{text: e.msg + "\n\n" + e.hint}
	}
	type spn struct{ s, e pos }
	spans := []spn{{position(pat, e.sp.start), position(pat, e.sp.end)}}
	if e.aux != nil {
		spans = append(spans, spn{position(pat, e.aux.start), position(pat, e.aux.end)})
	}
	lines := strings.Split(pat, "\n")
	if strings.HasSuffix(pat, "\n") {
		// Rust's lines() drops the empty last line, but a span may sit there.
		lines = lines[:len(lines)-1]
	}
	lineCount := len(lines)
	if strings.HasSuffix(pat, "\n") {
		lineCount++
	}
	width := 0
	if lineCount > 1 {
		width = len(strconv.Itoa(lineCount))
	}
	byLine := make([][]spn, lineCount+1)
	var multi []spn
	for _, s := range spans {
		if s.s.line == s.e.line {
			l := s.s.line - 1
			if l < len(byLine) {
				byLine[l] = append(byLine[l], s)
			}
		} else {
			multi = append(multi, s)
		}
	}
	for _, l := range byLine {
		for i := 1; i < len(l); i++ {
			for j := i; j > 0 && l[j].s.col < l[j-1].s.col; j-- {
				l[j], l[j-1] = l[j-1], l[j]
			}
		}
	}
	var b strings.Builder
	b.WriteString("regex parse error:\n")
	divider := strings.Repeat("~", 79)
	if width > 0 {
		b.WriteString(divider + "\n")
	}
	pad := 4
	if width > 0 {
		pad = 2 + width
	}
	for i, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		if width > 0 {
			n := strconv.Itoa(i + 1)
			b.WriteString(strings.Repeat(" ", width-len(n)) + n + ": ")
		} else {
			b.WriteString("    ")
		}
		b.WriteString(line)
		b.WriteByte('\n')
		if i < len(byLine) && len(byLine[i]) > 0 {
			b.WriteString(strings.Repeat(" ", pad))
			col := 0
			for _, s := range byLine[i] {
				for ; col < s.s.col-1; col++ {
					b.WriteByte(' ')
				}
				n := s.e.col - s.s.col
				if n < 1 {
					n = 1
				}
				b.WriteString(strings.Repeat("^", n))
				col += n
			}
			b.WriteByte('\n')
		}
	}
	if width > 0 {
		b.WriteString(divider + "\n")
		var notes []string
		for _, s := range multi {
			notes = append(notes, "on line "+strconv.Itoa(s.s.line)+" (column "+strconv.Itoa(s.s.col)+
				") through line "+strconv.Itoa(s.e.line)+" (column "+strconv.Itoa(s.e.col)+")")
		}
		if len(notes) > 0 {
			b.WriteString(strings.Join(notes, "\n") + "\n")
		}
	}
	b.WriteString("error: " + e.msg)
	if e.hint != "" {
		b.WriteString("\n\n" + e.hint)
	}
	return &Error{text: b.String()}
}

// invalidPatternUTF8 reports a pattern that is not valid UTF-8, in rg's words.
func invalidPatternUTF8(pat string) error {
	if utf8.ValidString(pat) {
		return nil
	}
	off := 0
	for off < len(pat) {
		r, n := utf8.DecodeRuneInString(pat[off:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		off += n
	}
	return &Error{text: "found invalid UTF-8 in pattern at byte offset " + strconv.Itoa(off) + ": " +
		escapeBytes(pat) + " (disable Unicode mode and use hex escape sequences to match arbitrary " +
		"bytes in a pattern, e.g., '(?-u)\\xFF')"}
}

// escapeBytes renders bytes as rg does in messages: valid UTF-8 as is,
// common control characters as escapes, other bytes as \xHH.
func escapeBytes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			b.WriteString(`\x` + strings.ToUpper(strconv.FormatUint(uint64(s[i])|0x100, 16)[1:]))
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == 0:
			b.WriteString(`\0`)
		case r < 0x20 || r == 0x7F:
			b.WriteString(`\x` + strings.ToUpper(strconv.FormatUint(uint64(r)|0x100, 16)[1:]))
		default:
			b.WriteRune(r)
		}
		i += n
	}
	return b.String()
}
