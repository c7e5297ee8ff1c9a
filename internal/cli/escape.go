package cli

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Unescape interprets the escapes rg accepts in separators and similar
// arguments: \t \n \r \\ \0 and \xHH. Anything else is kept literally.
func Unescape(s string) []byte {
	out := []byte{}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch != '\\' || i+1 >= len(s) {
			out = append(out, ch)
			continue
		}
		switch s[i+1] {
		case 'n':
			out = append(out, '\n')
			i++
		case 'r':
			out = append(out, '\r')
			i++
		case 't':
			out = append(out, '\t')
			i++
		case '\\':
			out = append(out, '\\')
			i++
		case '0':
			out = append(out, 0)
			i++
		case 'x':
			if i+3 < len(s) && isHex(s[i+2]) && isHex(s[i+3]) {
				out = append(out, unhex(s[i+2])<<4|unhex(s[i+3]))
				i += 3
			} else {
				out = append(out, '\\')
			}
		default:
			out = append(out, '\\')
		}
	}
	return out
}

// Escape renders bytes the way rg shows them in messages: printable ASCII as
// is, common controls as \t \n \r, other bytes as \xHH.
func Escape(b []byte) string {
	var sb strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n <= 1 {
			fmt.Fprintf(&sb, "\\x%02X", b[0])
			b = b[1:]
			continue
		}
		switch {
		case r == '\n':
			sb.WriteString(`\n`)
		case r == '\r':
			sb.WriteString(`\r`)
		case r == '\t':
			sb.WriteString(`\t`)
		case r == '\\':
			sb.WriteString(`\\`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&sb, "\\x%02X", r)
		default:
			sb.WriteRune(r)
		}
		b = b[n:]
	}
	return sb.String()
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}
