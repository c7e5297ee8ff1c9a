//go:build linux

package startpages

import (
	"encoding/binary"
	"os"
	"testing"
)

// elfWith builds the first bytes of a 64-bit little-endian ET_EXEC file
// with the given (flags, vaddr, filesz, memsz) loaded segments.
func elfWith(segs ...[4]uint64) []byte {
	le := binary.LittleEndian
	b := make([]byte, elfHeaderSize+len(segs)*progEntrySize)
	copy(b, "\x7fELF\x02\x01\x01")
	le.PutUint16(b[16:], etExec)
	le.PutUint64(b[32:], elfHeaderSize)
	le.PutUint16(b[54:], progEntrySize)
	le.PutUint16(b[56:], uint16(len(segs)))
	for i, s := range segs {
		p := b[elfHeaderSize+i*progEntrySize:]
		le.PutUint32(p, ptLoad)
		le.PutUint32(p[4:], uint32(s[0]))
		le.PutUint64(p[16:], s[1])
		le.PutUint64(p[32:], s[2])
		le.PutUint64(p[40:], s[3])
	}
	return b
}

func TestParseRanges(t *testing.T) {
	const r, rx, rwf = 4, 5, 6
	head := elfWith(
		[4]uint64{r, 0x400000, 0x5f0, 0x5f0},         // header: no whole page
		[4]uint64{rx, 0x401000, 0xa1c6a1, 0xa1c6a1},  // code
		[4]uint64{r, 0xe1e000, 0x2366897, 0x2366897}, // read-only data, last page shared
		[4]uint64{rwf, 0x3183808, 0x1000, 0x2203fa0}, // writable: starts in its last page
	)
	got := parseRanges(head, 0x1000, 0)
	want := [][2]uintptr{{0x401000, 0xe1d000}, {0xe1e000, 0x3183000}}
	if len(got) != len(want) {
		t.Fatalf("ranges %x, want %x", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("ranges %x, want %x", got, want)
		}
	}
	// The start of the code is kept, in whole pages; data is not.
	got = parseRanges(head, 0x1000, 0x100800)
	want = [][2]uintptr{{0x502000, 0xe1d000}, {0xe1e000, 0x3183000}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("keeping 0x100800 bytes of code: ranges %x, want %x", got, want)
	}
}

func TestParseRangesRefuses(t *testing.T) {
	good := elfWith([4]uint64{5, 0x401000, 0x10000, 0x10000})
	pie := append([]byte(nil), good...)
	binary.LittleEndian.PutUint16(pie[16:], 3) // ET_DYN
	short := good[:elfHeaderSize+10]
	for name, head := range map[string][]byte{"pie": pie, "short": short, "empty": nil, "text": []byte("#!/bin/sh\n")} {
		if got := parseRanges(head, 0x1000, 0); got != nil {
			t.Errorf("%s: ranges %x, want none", name, got)
		}
	}
	if got := parseRanges(good, 0x1000, 0); len(got) != 1 {
		t.Errorf("good: ranges %x, want one", got)
	}
}

// TestDropKeepsRunning drops this test binary's read-only pages and runs
// code and reads data afterwards.
func TestDropKeepsRunning(t *testing.T) {
	Drop()
	if _, err := os.Stat("."); err != nil {
		t.Fatal(err)
	}
	if s := binary.LittleEndian.String(); s != "LittleEndian" {
		t.Fatalf("String() = %q", s)
	}
}
