package input

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestChunkReaderSteps: a transcoding reader yields, read by read, the
// text of the byte-order-mark peek (3 bytes), then of one 8 KiB source
// read at a time, as encoding_rs_io's DecodeReaderBytes does for rg's
// searcher (issue 23, item 2); a code unit split between two source reads
// comes out with the second.
func TestChunkReaderSteps(t *testing.T) {
	var src bytes.Buffer
	for src.Len() < 3*decodeBufSize {
		src.WriteString("a\x00")
	}
	src.WriteString("b") // an unfinished code unit at the end
	rc, err := NewReader(bytes.NewReader(src.Bytes()), "f", Options{Encoding: "utf-16le"})
	if err != nil {
		t.Fatal(err)
	}
	p := make([]byte, 64<<10)
	var sizes []int
	var all []byte
	for {
		n, err := rc.Read(p)
		if n > 0 {
			sizes = append(sizes, n)
			all = append(all, p[:n]...)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	// 3 bytes: one unit and a half; then 8192 bytes: the half unit's rest,
	// 4095 units and a half; the last read's 8190 bytes end the 12288th
	// unit; at the end the lone byte is one U+FFFD.
	want := []int{1, 4096, 4096, 4095, 3}
	if len(sizes) != len(want) {
		t.Fatalf("read sizes %v, want %v", sizes, want)
	}
	for i := range want {
		if sizes[i] != want[i] {
			t.Fatalf("read sizes %v, want %v", sizes, want)
		}
	}
	if got := string(all); got != strings.Repeat("a", 3*decodeBufSize/2)+"\uFFFD" {
		t.Fatalf("text %q…", got[:20])
	}
}
