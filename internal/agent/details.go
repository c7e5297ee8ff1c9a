package agent

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// The structured details of an answer are bounded like its text
// (MaxDetailsBytes). The page builders measure the JSON of every entry they
// add and end a page early (its cursor goes on from the first entry left
// out); boundDetails is the last guard, which never fires for a page built
// that way and says so in a note when it does.

// detailsSize is the length of v as JSON, as json.Marshal writes it (HTML
// characters escaped: the longest of the encodings the CLI and the MCP SDK
// use).
func detailsSize(v any) int {
	b, err := json.Marshal(v)
	if err != nil {
		return 0
	}
	return len(b)
}

// jsonCost is the length of s as a JSON string, quotes included, as
// json.Marshal writes it (without allocating).
func jsonCost(s string) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n += asciiCost(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += 6 // \ufffd
		case r == '\u2028' || r == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}

func asciiCost(c byte) int {
	switch {
	case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t':
		return 2
	case c < 0x20 || c == '<' || c == '>' || c == '&':
		return 6
	}
	return 1
}

// shortenJSON is shorten measured as JSON: s when its JSON string (quotes
// included) takes at most n bytes, else its head and tail around a note of
// the bytes left out, within n. A string without characters JSON escapes
// is shortened exactly as shorten does.
func shortenJSON(s string, n int) string {
	cost := jsonCost(s)
	if cost-2 <= n {
		return s
	}
	if cost-2 == len(s) {
		return shorten(s, n)
	}
	keep := max(0, n-60) / 2
	head := 0
	for used := 0; head < len(s); {
		r, size := utf8.DecodeRuneInString(s[head:])
		c := jsonCost(string(r)) - 2
		if r == utf8.RuneError && size == 1 {
			c = 6
		}
		if used+c > keep {
			break
		}
		used += c
		head += size
	}
	tail := len(s)
	for used := 0; tail > head; {
		r, size := utf8.DecodeLastRuneInString(s[:tail])
		c := jsonCost(string(r)) - 2
		if r == utf8.RuneError && size == 1 {
			c = 6
		}
		if used+c > keep {
			break
		}
		used += c
		tail -= size
	}
	return fmt.Sprintf("%s…(%d bytes)…%s", s[:head], tail-head, s[tail:])
}

// guardNoteBytes is kept free by boundDetails for its own note.
const guardNoteBytes = 240

// boundDetails is the last guard of the details: when their JSON is over
// MaxDetailsBytes it leaves out entries from the end of their lists (the
// least needed lists first) until they fit, states how many in a note and
// marks the answer partial. The text still shows what the entries held.
func boundDetails(d *Details) {
	size := detailsSize(d)
	if size <= MaxDetailsBytes {
		return
	}
	left := 0
	for size > MaxDetailsBytes-guardNoteBytes {
		c, ok := dropLast(d)
		if !ok {
			break
		}
		left++
		// Each entry is measured as it goes; the whole is measured again
		// once the estimate fits (a list's brackets and name may go too).
		if size -= c + 1; size <= MaxDetailsBytes-guardNoteBytes {
			size = detailsSize(d)
		}
	}
	d.Notes = append(d.Notes, fmt.Sprintf("%d entries of these details were left out to keep them within %d bytes; the text shows the answer", left, MaxDetailsBytes))
	if d.Status == "complete" {
		d.Status = "partial"
	}
}

// dropLast removes the last entry of the first list of d that has one, in
// the order the guard gives them up, and returns its size as JSON; false
// when none is left.
func dropLast(d *Details) (int, bool) {
	for _, drop := range []func() (int, bool){
		popSized(&d.Context), popSized(&d.Next), popSized(&d.Matches), popSized(&d.Outlines),
		popSized(&d.OtherFiles), popSized(&d.Files), popSized(&d.UnverifiedFiles), popSized(&d.ChangedFiles), popSized(&d.Problems),
		popSized(&d.Targets), popSized(&d.Selection), popSized(&d.Paths),
	} {
		if n, ok := drop(); ok {
			return n, true
		}
	}
	if d.Retried != nil {
		c := detailsSize(d.Retried)
		d.Retried = nil
		return c, true
	}
	return 0, false
}

// popSized returns a step of dropLast for one list: it removes the list's
// last element (the array is shared with no one: re-slicing leaves it as
// it was) and returns its size as JSON; false when the list is empty.
func popSized[T any](list *[]T) func() (int, bool) {
	return func() (int, bool) {
		n := len(*list)
		if n == 0 {
			return 0, false
		}
		size := detailsSize((*list)[n-1])
		*list = (*list)[:n-1]
		return size, true
	}
}
