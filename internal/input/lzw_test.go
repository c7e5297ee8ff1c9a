package input

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// TestLZWFixtures decodes compress(1) output at several code widths; the
// widths 9 and 10 make compress clear its table mid-stream.
func TestLZWFixtures(t *testing.T) {
	want := readFixture(t, "lzw-source.txt")
	for _, name := range []string{"lzw-b10.txt.Z", "lzw-b12.txt.Z", "lzw-b16.txt.Z"} {
		t.Run(name, func(t *testing.T) {
			got, err := openAll(fixture(name), Options{SearchZip: true})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("decoded %d bytes, want %d (first difference at %d)", len(got), len(want), firstDiff(got, want))
			}
		})
	}
	// The 10-bit fixture must exercise CLEAR codes and width resets.
	z := newLZWReader(bufio.NewReader(bytes.NewReader(readFixture(t, "lzw-b10.txt.Z"))), "x.Z")
	if _, err := io.ReadAll(z); err != nil {
		t.Fatal(err)
	}
	if z.clears == 0 {
		t.Fatal("lzw-b10.txt.Z has no CLEAR code; the fixture no longer covers table resets")
	}
}

// TestLZWAgainstCompress round-trips fresh inputs through the compress(1)
// tool at every code width, when it is installed.
func TestLZWAgainstCompress(t *testing.T) {
	tool, err := exec.LookPath("compress")
	if err != nil {
		t.Skip("compress (ncompress) not installed")
	}
	inputs := map[string][]byte{
		"empty":  {},
		"byte":   {'x'},
		"runs":   bytes.Repeat([]byte("abcabcabcabd"), 5000),
		"binary": pseudoRandom(70000, 7),
		"mixed":  append(pseudoRandom(20000, 3), bytes.Repeat([]byte("needle "), 6000)...),
	}
	dir := t.TempDir()
	for name, data := range inputs {
		src := filepath.Join(dir, name)
		if err := os.WriteFile(src, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for bits := 10; bits <= 16; bits++ { // ncompress cannot read back its own -b 9 output
			out, err := exec.Command(tool, "-c", "-b", strconv.Itoa(bits), src).Output()
			if err != nil && len(out) == 0 {
				t.Fatalf("compress %s -b %d: %v", name, bits, err)
			}
			got, err := decodeAll("x.Z", out, Options{SearchZip: true})
			if err != nil {
				t.Fatalf("%s -b %d: %v", name, bits, err)
			}
			if !bytes.Equal(got, data) {
				t.Fatalf("%s -b %d: decoded %d bytes, want %d (first difference at %d)",
					name, bits, len(got), len(data), firstDiff(got, data))
			}
		}
	}
}

// TestLZWErrors checks gzip's wording for damaged .Z input.
func TestLZWErrors(t *testing.T) {
	valid := readFixture(t, "plain.txt.Z")
	tests := []struct {
		name string
		data []byte
		want string // the tool's message; "" means no error
	}{
		{"empty", nil, "gzip: x.Z: unexpected end of file"},
		{"magic only", []byte{0x1f, 0x9d}, "gzip: x.Z: unexpected end of file"},
		{"not compressed", []byte("plain text"), "gzip: x.Z: not in gzip format"},
		{"17 bits", []byte{0x1f, 0x9d, 0x91, 0x41, 0x00}, "gzip: x.Z: compressed with 17 bits, can only handle 16 bits"},
		{"first code not a byte", []byte{0x1f, 0x9d, 0x90, 0x00, 0x03}, "gzip: x.Z: corrupt input."},
		{"code past the table", []byte{0x1f, 0x9d, 0x90, 0x41, 0xf0, 0x07}, "gzip: x.Z: corrupt input."},
		{"truncated", valid[:len(valid)/2], ""},
		{"header only", valid[:3], ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeAll("x.Z", tt.data, Options{SearchZip: true})
			checkToolError(t, err, tt.want)
		})
	}
}

// firstDiff returns the first index where a and b differ.
func firstDiff(a, b []byte) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// pseudoRandom returns n deterministic bytes.
func pseudoRandom(n int, seed uint32) []byte {
	b := make([]byte, n)
	x := seed*2654435761 + 1
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}
