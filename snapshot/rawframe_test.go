package snapshot

import (
	"bytes"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// TestRawFrame: a raw frame of one, several and no blocks decodes, through
// klauspost's zstd decoder, to its content, and its header declares the
// content size and one segment, as readSnapshotFrom requires.
func TestRawFrame(t *testing.T) {
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	for _, n := range []int{0, 1, 300, rawBlockMax - 1, rawBlockMax, rawBlockMax + 1, 2*rawBlockMax + 77} {
		content := make([]byte, n)
		for i := range content {
			content[i] = byte(i*7 + i>>9)
		}
		frame := rawFrame(content)
		var h zstd.Header
		if err := h.Decode(frame); err != nil {
			t.Fatalf("%d bytes: header: %v", n, err)
		}
		if !h.SingleSegment || !h.HasFCS || h.FrameContentSize != uint64(n) || !h.HasCheckSum {
			t.Fatalf("%d bytes: header %+v", n, h)
		}
		got, err := dec.DecodeAll(frame, nil)
		if err != nil || !bytes.Equal(got, content) {
			t.Fatalf("%d bytes: decoded %d bytes, %v", n, len(got), err)
		}
		// A flipped content byte fails the checksum.
		if n > 0 {
			bad := append([]byte(nil), frame...)
			bad[len(bad)-5] ^= 1
			if _, err := dec.DecodeAll(bad, nil); err == nil {
				t.Fatalf("%d bytes: a damaged raw frame decoded", n)
			}
		}
	}
}

// TestSmallSnapshotRaw: a small snapshot is stored as a raw frame and a
// large one compressed, and both read back.
func TestSmallSnapshotRaw(t *testing.T) {
	for _, lines := range []int{3, 20000} {
		b := NewBuilder()
		for i := range lines {
			b.AddLine("a.go", i+1, []byte("some line of text with a match in it"), []Range{{Start: 5, End: 9}})
		}
		s := b.Build(Meta{Root: "/r", Options: map[string]string{"pattern": "line"}})
		s.ID = newToken()
		data, err := encodeSnapshot(s)
		if err != nil {
			t.Fatal(err)
		}
		raw := payload(s)
		if wantRaw := len(raw) <= maxRawFrameBytes; bytes.Equal(data, rawFrame(raw)) != wantRaw {
			t.Fatalf("%d lines (%d bytes): raw frame %v, want %v", lines, len(raw), !wantRaw, wantRaw)
		}
		back, err := decodeSnapshot(data)
		if err != nil {
			t.Fatal(err)
		}
		if back.Totals != s.Totals {
			t.Fatalf("%d lines: totals %+v, want %+v", lines, back.Totals, s.Totals)
		}
	}
}
