package matcher

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf16"
)

// fuzzPattern turns fuzz bytes into a pattern of a restricted grammar whose
// meaning on ASCII text is the same in Rust's regex and Go's regexp.
func fuzzPattern(data []byte) string {
	var b strings.Builder
	depth := 0
	for _, c := range data {
		switch c % 16 {
		case 0, 1, 2:
			b.WriteByte("abc"[c%3])
		case 3:
			b.WriteString("[a-b]")
		case 4:
			b.WriteString(".")
		case 5:
			b.WriteString(`\w`)
		case 6:
			b.WriteString(`\d`)
		case 7:
			b.WriteString(`\s`)
		case 8:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "|") && !strings.HasSuffix(b.String(), "(") {
				b.WriteString("|")
			}
		case 9:
			b.WriteString("(")
			depth++
		case 10:
			if depth > 0 {
				b.WriteString(")")
				depth--
			}
		case 11:
			b.WriteString(`\b`)
		case 12:
			b.WriteString("^")
		case 13:
			b.WriteString("$")
		default:
			s := b.String()
			if len(s) > 0 && strings.ContainsAny(s[len(s)-1:], "abc].wdsB)") && !strings.HasSuffix(s, "\\b") {
				b.WriteString([]string{"*", "+", "?"}[c%3])
			}
		}
	}
	for ; depth > 0; depth-- {
		b.WriteString(")")
	}
	return b.String()
}

func fuzzHaystack(data []byte) []byte {
	out := make([]byte, len(data))
	for i, c := range data {
		out[i] = " abc123_-."[c%10]
	}
	return out
}

func FuzzAgainstGoRegexp(f *testing.F) {
	f.Add([]byte{0, 1, 14}, []byte("aab abc"))
	f.Add([]byte{9, 0, 8, 1, 10, 15}, []byte("ab ba"))
	f.Add([]byte{11, 5, 15, 11}, []byte("a1 _x"))
	f.Add([]byte{12, 3, 13, 8, 6, 14}, []byte("12 ab"))
	f.Add([]byte{9, 0, 14, 10, 14}, []byte("aaa"))
	f.Add([]byte{4, 4, 7}, []byte("a b c"))
	f.Fuzz(func(t *testing.T, pdata, hdata []byte) {
		if len(pdata) > 40 || len(hdata) > 200 {
			return
		}
		pat := fuzzPattern(pdata)
		if strings.Contains(pat, "()") || strings.Contains(pat, "(|") || strings.Contains(pat, "|)") {
			return // empty alternatives inside loops: see known differences
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			return
		}
		m, err := Compile(Options{Patterns: []string{pat}, LineTerminator: '\n'})
		if err != nil {
			t.Fatalf("%q: %v", pat, err)
		}
		h := fuzzHaystack(hdata)
		if got, want := m.IsMatch(h), re.Match(h); got != want {
			t.Fatalf("IsMatch(%q, %q) = %v, want %v", pat, h, got, want)
		}
		var want []Range
		for _, loc := range re.FindAllIndex(h, -1) {
			want = append(want, Range{loc[0], loc[1]})
		}
		got := m.Occurrences(h, nil)
		if len(got) != 0 || len(want) != 0 {
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("Occurrences(%q, %q) = %v, want %v", pat, h, got, want)
			}
		}
		// The VM alone must agree with the RE2 path.
		var vm []Range
		for at, last := 0, -1; at <= len(h); {
			s, e, ok := m.findAt(h, at, nil)
			if !ok {
				break
			}
			if s == e {
				at = e + 1
				if e == last {
					continue
				}
			} else {
				at = e
			}
			last = e
			vm = append(vm, Range{s, e})
		}
		if len(vm) != 0 || len(want) != 0 {
			if !reflect.DeepEqual(vm, want) {
				t.Fatalf("VM(%q, %q) = %v, want %v", pat, h, vm, want)
			}
		}
	})
}

func utf16Ref(line []byte, off int) int {
	if off < 0 {
		off = 0
	}
	if off > len(line) {
		off = len(line)
	}
	return len(utf16.Encode([]rune(string(line[:off]))))
}

func FuzzUTF16Columns(f *testing.F) {
	f.Add([]byte("héllo 😀 wörld"), 1, 3, 6, 11)
	f.Add([]byte("a\xffb\xe2\x98c"), 0, 2, 4, 5)
	f.Add([]byte("😀😀"), 1, 2, 5, 8)
	f.Add([]byte(""), 0, 0, 0, 0)
	f.Add([]byte("abc"), 3, 1, 2, 9)
	f.Fuzz(func(t *testing.T, line []byte, a, b, c, d int) {
		if len(line) > 1000 {
			return
		}
		ranges := []Range{{a, b}, {c, d}}
		got := UTF16Columns(line, ranges, []Range{{-7, -7}})
		if len(got) != 3 || got[0] != (Range{-7, -7}) {
			t.Fatalf("dst prefix not kept: %v", got)
		}
		for i, r := range ranges {
			want := Range{utf16Ref(line, r.Start), utf16Ref(line, r.End)}
			if got[i+1] != want {
				t.Fatalf("UTF16Columns(%q, %v)[%d] = %v, want %v", line, ranges, i, got[i+1], want)
			}
		}
	})
}
