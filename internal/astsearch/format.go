package astsearch

import (
	"bytes"

	"github.com/evgrep/evgrep/structural"
)

// FirstLine is the first line of the matched text of src (without
// terminator), not copied.
func FirstLine(src []byte, m *structural.Match) []byte {
	b := src[m.Start:m.End]
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	return bytes.TrimSuffix(b, []byte("\r"))
}
