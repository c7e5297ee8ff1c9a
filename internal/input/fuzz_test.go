package input

import (
	"bytes"
	"io"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"golang.org/x/text/transform"
)

// refUTF16 is an independent, one-unit-at-a-time statement of
// encoding_rs's UTF-16 decoding, the oracle for the chunked decoder.
func refUTF16(b []byte, bigEndian bool) string {
	var out []rune
	lead := rune(-1) // pending lead surrogate
	i := 0
	for ; i+1 < len(b); i += 2 {
		u := rune(b[i+1])<<8 | rune(b[i])
		if bigEndian {
			u = rune(b[i])<<8 | rune(b[i+1])
		}
		if lead >= 0 {
			if u >= 0xDC00 && u < 0xE000 {
				out = append(out, 0x10000+(lead-0xD800)<<10+(u-0xDC00))
				lead = -1
				continue
			}
			out = append(out, utf8.RuneError)
			lead = -1
		}
		switch {
		case u >= 0xD800 && u < 0xDC00:
			lead = u
		case u >= 0xDC00 && u < 0xE000:
			out = append(out, utf8.RuneError)
		default:
			out = append(out, u)
		}
	}
	if lead >= 0 || i < len(b) {
		out = append(out, utf8.RuneError) // one for the whole unfinished tail
	}
	return string(out)
}

// refUTF8 is the Encoding Standard's UTF-8 decoder algorithm, written as
// the specification states it, the oracle for utf8Decoder.
func refUTF8(b []byte) string {
	var out []rune
	var cp rune
	needed, seen := 0, 0
	lower, upper := byte(0x80), byte(0xBF)
	for i := 0; i < len(b); {
		c := b[i]
		if needed == 0 {
			i++
			switch {
			case c < 0x80:
				out = append(out, rune(c))
			case c >= 0xC2 && c <= 0xDF:
				needed, cp = 1, rune(c&0x1F)
			case c >= 0xE0 && c <= 0xEF:
				if c == 0xE0 {
					lower = 0xA0
				}
				if c == 0xED {
					upper = 0x9F
				}
				needed, cp = 2, rune(c&0xF)
			case c >= 0xF0 && c <= 0xF4:
				if c == 0xF0 {
					lower = 0x90
				}
				if c == 0xF4 {
					upper = 0x8F
				}
				needed, cp = 3, rune(c&0x7)
			default:
				out = append(out, utf8.RuneError)
			}
			continue
		}
		if c < lower || c > upper {
			cp, needed, seen, lower, upper = 0, 0, 0, 0x80, 0xBF
			out = append(out, utf8.RuneError)
			continue // the byte is processed again
		}
		i++
		lower, upper = 0x80, 0xBF
		cp = cp<<6 | rune(c&0x3F)
		seen++
		if seen == needed {
			out = append(out, cp)
			cp, needed, seen = 0, 0, 0
		}
	}
	if needed != 0 {
		out = append(out, utf8.RuneError)
	}
	return string(out)
}

// chunkedReader returns b in pieces whose sizes come from sizes.
type chunkedReader struct {
	b     []byte
	sizes []byte
}

func (c *chunkedReader) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	n := 1
	if len(c.sizes) > 0 {
		n = int(c.sizes[0])%7 + 1
		c.sizes = c.sizes[1:]
	}
	n = min(n, len(p), len(c.b))
	copy(p, c.b[:n])
	c.b = c.b[n:]
	return n, nil
}

// FuzzUTF16 checks the UTF-16 path: no panic, valid UTF-8 out, the same
// result whatever the read sizes, and agreement with the oracle.
func FuzzUTF16(f *testing.F) {
	f.Add([]byte("\xff\xfeh\x00i\x00"), []byte{1, 2}, false)
	f.Add([]byte("\x00\xd8\x00\xdc\x00\xd8x"), []byte{0}, false)
	f.Add([]byte("\xd8\x3d\xde\x00\xdc\x00\xd8"), []byte{3, 1}, true)
	f.Add(readFixture(f, "utf16le-broken.txt"), []byte{5, 2, 3}, false)
	f.Fuzz(func(t *testing.T, data, sizes []byte, bigEndian bool) {
		want := refUTF16(data, bigEndian)
		got, err := io.ReadAll(transform.NewReader(&chunkedReader{b: data, sizes: sizes},
			utf16Decoder{bigEndian: bigEndian}))
		if err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(got) {
			t.Fatalf("invalid UTF-8 out: %q", got)
		}
		if string(got) != want {
			t.Fatalf("decoded %q, oracle says %q", got, want)
		}
		// Through Wrap with a BOM, read in one-byte steps.
		bom := "\xff\xfe"
		if bigEndian {
			bom = "\xfe\xff"
		}
		viaWrap, err := io.ReadAll(iotest.OneByteReader(Wrap(bytes.NewReader(append([]byte(bom), data...)), Options{})))
		if err != nil {
			t.Fatal(err)
		}
		if string(viaWrap) != want {
			t.Fatalf("Wrap decoded %q, oracle says %q", viaWrap, want)
		}
	})
}

// FuzzUTF8 checks the -E utf-8 decoder against the specification's
// algorithm, whatever the read sizes.
func FuzzUTF8(f *testing.F) {
	f.Add([]byte("a\xe2\x82b\xf0\x80c\xed\xa0\x80d\xff"), []byte{1})
	f.Add([]byte("na\xc3\xafve \xf0\x9f\x98\x80"), []byte{2, 3})
	f.Fuzz(func(t *testing.T, data, sizes []byte) {
		want := refUTF8(data)
		got, err := io.ReadAll(transform.NewReader(&chunkedReader{b: data, sizes: sizes}, utf8Decoder{}))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Fatalf("decoded %q, the specification's algorithm says %q", got, want)
		}
	})
}

// FuzzDecompress feeds arbitrary bytes to every decompressor: any result
// but a panic, a hang or an error that is not *Error is fine.
func FuzzDecompress(f *testing.F) {
	for _, name := range []string{"plain.txt.gz", "plain.txt.bz2", "plain.txt.xz", "plain.txt.lz4",
		"plain.txt.lzma", "plain.txt.br", "plain.txt.zst", "plain.txt.Z"} {
		f.Add(readFixture(f, name), uint8(0))
	}
	exts := []string{".gz", ".bz2", ".xz", ".lz4", ".lzma", ".br", ".zst", ".Z"}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		ext := exts[int(which)%len(exts)]
		rc, err := NewReader(bytes.NewReader(data), "f"+ext, Options{SearchZip: true})
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		// Bound the output: small inputs may legitimately expand a lot.
		_, err = io.Copy(io.Discard, io.LimitReader(rc, 64<<20))
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%s: error %T %q", ext, err, err)
			}
		}
	})
}
