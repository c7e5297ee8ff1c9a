package input

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// checkToolError checks that err carries the decompressor message want in
// rg's frame, or that err is nil when want is "".
func checkToolError(t *testing.T, err error, want string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatalf("unexpected error: %q", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("no error, want %q", want)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T %q is not *Error", err, err)
	}
	rule := strings.Repeat("-", 79)
	frame := "\n" + rule + "\n" + want + "\n" + rule
	if want == "<stderr is empty>" {
		frame = want
	}
	if e.Error() != frame {
		t.Fatalf("error text\n%q\nwant\n%q", e.Error(), frame)
	}
}

func TestCompressionFormat(t *testing.T) {
	tests := []struct{ path, want string }{
		{"a.gz", "gzip"},
		{"dir/a.tar.gz", "gzip"},
		{"a.tgz", "gzip"},
		{".gz", "gzip"},
		{"a.bz2", "bzip2"},
		{"a.tbz2", "bzip2"},
		{"a.xz", "xz"},
		{"a.txz", "xz"},
		{"a.lz4", "lz4"},
		{"a.lzma", "lzma"},
		{"a.br", "brotli"},
		{"a.zst", "zstd"},
		{"a.zstd", "zstd"},
		{"a.Z", "compress"},
		{"a.z", ""},
		{"a.GZ", ""},
		{"a.gz.txt", ""},
		{"a.gzip", ""},
		{"a.bz", ""},
		{"a.zip", ""},
		{"a.tar", ""},
		{"a.lz", ""},
		{"gz", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := CompressionFormat(tt.path); got != tt.want {
			t.Errorf("CompressionFormat(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

// TestDecompressFixtures reads every compressed fixture back to plain.txt.
func TestDecompressFixtures(t *testing.T) {
	plain := readFixture(t, "plain.txt")
	double := append(append([]byte(nil), plain...), plain...)
	tests := []struct {
		name string
		want []byte
	}{
		{"plain.txt.gz", plain},
		{"plain.txt.bz2", plain},
		{"plain.txt.xz", plain},
		{"plain.txt.lz4", plain},
		{"plain.txt.lzma", plain},
		{"plain.txt.br", plain},
		{"plain.txt.zst", plain},
		{"plain.txt.Z", plain},
		{"double.txt.gz", double},
		{"double.txt.bz2", double},
		{"double.txt.xz", double},
		{"double.txt.lz4", double},
		{"double.txt.zst", double},
		{"gzip-reads-lzw.gz", plain},
		{"lzw-name-gzip-data.Z", plain},
		{"xz-reads-lzma.xz", plain},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := openAll(fixture(tt.name), Options{SearchZip: true})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tt.want) {
				t.Fatalf("got %q\nwant %q", got, tt.want)
			}
			// Without -z the file is read as it is.
			raw, err := openAll(fixture(tt.name), Options{Encoding: "none"})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(raw, readFixture(t, tt.name)) {
				t.Fatal("without SearchZip the bytes changed")
			}
		})
	}
}

// TestDecompressThenDecode: a UTF-16 file inside gzip is transcoded after
// decompression, as rg does.
func TestDecompressThenDecode(t *testing.T) {
	got, err := openAll(fixture("utf16le-bom.txt.gz"), Options{SearchZip: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "hello UTF-16LE\r\nnaïve 日本 \U0001F600\nend\n"
	if string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// decompressErrorCase is damaged input for one decompressor and the
// message its tool prints (observed through rg 13 on Debian 12).
type decompressErrorCase struct {
	name string
	file string
	data []byte
	want string // "" = no error
}

// decompressErrorCases builds the damaged inputs from the fixtures.
func decompressErrorCases(t *testing.T) []decompressErrorCase {
	fx := func(name string) []byte { return readFixture(t, name) }
	cut := func(b []byte, n int) []byte { return append([]byte(nil), b[:n]...) }
	with := func(b []byte, tail string) []byte { return append(append([]byte(nil), b...), tail...) }
	flip := func(b []byte, i int) []byte {
		c := append([]byte(nil), b...)
		if i < 0 {
			i += len(c)
		}
		c[i] ^= 0xff
		return c
	}
	gz, bz, xzf, lz, lzm, br, zs := fx("plain.txt.gz"), fx("plain.txt.bz2"), fx("plain.txt.xz"),
		fx("plain.txt.lz4"), fx("plain.txt.lzma"), fx("plain.txt.br"), fx("plain.txt.zst")
	bz2Tail := "\n\tInput file = x.bz2, output file = (stdout)\n\nIt is possible that the compressed file(s) have become corrupted.\n" +
		"You can use the -tvv option to test integrity of such files.\n\n" +
		"You can use the `bzip2recover' program to attempt to recover\ndata from undamaged sections of corrupted files."
	return []decompressErrorCase{
		{"gzip empty", "x.gz", nil, "gzip: x.gz: unexpected end of file"},
		{"gzip not gzip", "x.gz", []byte("garbage\n"), "gzip: x.gz: not in gzip format"},
		{"gzip truncated", "x.gz", cut(gz, 20), "gzip: x.gz: unexpected end of file"},
		{"gzip crc", "x.gz", flip(gz, -8), "gzip: x.gz: invalid compressed data--crc error"},
		{"gzip garbage after", "x.gz", with(gz, "garbage"), "gzip: x.gz: decompression OK, trailing garbage ignored"},
		{"gzip zeros after", "x.gz", with(gz, "\x00\x00\x00\x00"), ""},
		{"bzip2 not bzip2", "x.bz2", []byte("xx"), "bzip2: x.bz2 is not a bzip2 file."},
		{"bzip2 empty", "x.bz2", nil, "bzip2: Compressed file ends unexpectedly;\n\tperhaps it is corrupted?  *Possible* reason follows.\nbzip2: Success" + bz2Tail},
		{"bzip2 truncated", "x.bz2", cut(bz, 30), "bzip2: Compressed file ends unexpectedly;\n\tperhaps it is corrupted?  *Possible* reason follows.\nbzip2: Success" + bz2Tail},
		{"bzip2 corrupt", "x.bz2", flip(bz, -5), "bzip2: Data integrity error when decompressing." + bz2Tail},
		{"bzip2 garbage after", "x.bz2", with(bz, "garbage"), ""},
		{"xz empty", "x.xz", nil, "xz: x.xz: File format not recognized"},
		{"xz not xz", "x.xz", []byte("xx"), "xz: x.xz: File format not recognized"},
		{"xz gzip inside", "x.xz", gz, "xz: x.xz: File format not recognized"},
		{"xz truncated", "x.xz", cut(xzf, 30), "xz: x.xz: Unexpected end of input"},
		{"xz corrupt", "x.xz", flip(xzf, len(xzf)/2), "xz: x.xz: Compressed data is corrupt"},
		{"xz short garbage after", "x.xz", with(xzf, "garbage"), "xz: x.xz: Unexpected end of input"},
		{"xz long garbage after", "x.xz", with(xzf, strings.Repeat("g", 20)), "xz: x.xz: Compressed data is corrupt"},
		{"xz padding after", "x.xz", with(xzf, "\x00\x00\x00\x00\x00\x00\x00\x00"), ""},
		{"lzma empty", "x.lzma", nil, "xz: x.lzma: File format not recognized"},
		{"lzma bad props", "x.lzma", []byte(strings.Repeat("x", 18)), "xz: x.lzma: File format not recognized"},
		{"lzma odd dictionary", "x.lzma", func() []byte { c := cut(lzm, len(lzm)); c[1], c[2], c[3], c[4] = 0x45, 0x23, 0x01, 0; return c }(), "xz: x.lzma: File format not recognized"},
		{"lzma xz inside", "x.lzma", xzf, "xz: x.lzma: File format not recognized"},
		{"lzma truncated", "x.lzma", cut(lzm, 15), "xz: x.lzma: Unexpected end of input"},
		{"lzma garbage after", "x.lzma", with(lzm, "garbage"), "xz: x.lzma: Compressed data is corrupt"},
		{"lz4 empty", "x.lz4", nil, ""},
		{"lz4 not lz4", "x.lz4", []byte("xxxx"), "Error 44 : Unrecognized header : file cannot be decoded"},
		{"lz4 truncated", "x.lz4", cut(lz, 15), "Error 68 : Unfinished stream"},
		{"lz4 checksum", "x.lz4", flip(lz, -3), "Error 66 : Decompression error : ERROR_contentChecksum_invalid"},
		{"lz4 garbage after", "x.lz4", with(lz, "garbage"), "<stderr is empty>"},
		{"brotli empty", "x.br", nil, "corrupt input [x.br]"},
		{"brotli not brotli", "x.br", []byte("xx"), "corrupt input [x.br]"},
		{"brotli truncated", "x.br", cut(br, 5), "corrupt input [x.br]"},
		{"brotli garbage after", "x.br", with(br, "garbage"), "corrupt input [x.br]"},
		{"brotli twice", "x.br", with(br, string(br)), "corrupt input [x.br]"},
		{"zstd empty", "x.zst", nil, "zstd: x.zst: unexpected end of file"},
		{"zstd not zstd", "x.zst", []byte("xxxx"), "zstd: x.zst: unsupported format"},
		{"zstd truncated", "x.zst", cut(zs, 15), "x.zst : Read error (39) : premature end"},
		{"zstd checksum", "x.zst", flip(zs, -3), "x.zst : Decoding error (36) : Restored data doesn't match checksum"},
		{"zstd garbage after", "x.zst", with(zs, "garbage"), "zstd: x.zst: unsupported format"},
		{"zstd zeros after", "x.zst", with(zs, "\x00\x00\x00\x00\x00\x00\x00\x00"), "zstd: x.zst: unsupported format"},
	}
}

// TestDecompressErrors checks each decompressor's wording for damaged input.
func TestDecompressErrors(t *testing.T) {
	for _, tt := range decompressErrorCases(t) {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeAll(tt.file, tt.data, Options{SearchZip: true})
			checkToolError(t, err, tt.want)
			if tt.want == "" && tt.data != nil && !bytes.HasPrefix(got, []byte("evgrep input fixture")) {
				t.Fatalf("decoded %q", got)
			}
		})
	}
}

// TestDecompressErrorAfterData: bytes decoded before a failure are
// delivered, then the error, and the error stays.
func TestDecompressErrorAfterData(t *testing.T) {
	gz := readFixture(t, "plain.txt.gz")
	rc, err := NewReader(bytes.NewReader(append(gz, "garbage"...)), "x.gz", Options{SearchZip: true})
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	var got []byte
	buf := make([]byte, 7)
	for {
		n, err := rc.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			if !strings.Contains(err.Error(), "trailing garbage ignored") {
				t.Fatalf("error %q", err)
			}
			break
		}
	}
	if !bytes.Equal(got, readFixture(t, "plain.txt")) {
		t.Fatalf("data before the error: %q", got)
	}
	if _, err := rc.Read(buf); err == nil || !strings.Contains(err.Error(), "trailing garbage") {
		t.Fatalf("error is not sticky: %v", err)
	}
}

// TestCorruptNoPanic feeds damaged variants of every fixture to every
// decompressor; any outcome but a panic or a hang is acceptable.
func TestCorruptNoPanic(t *testing.T) {
	names := []string{"plain.txt.gz", "plain.txt.bz2", "plain.txt.xz", "plain.txt.lz4",
		"plain.txt.lzma", "plain.txt.br", "plain.txt.zst", "plain.txt.Z", "lzw-b12.txt.Z"}
	exts := []string{".gz", ".bz2", ".xz", ".lz4", ".lzma", ".br", ".zst", ".Z"}
	for _, name := range names {
		data := readFixture(t, name)
		for i := 0; i < len(data); i += 1 + len(data)/40 {
			variants := [][]byte{
				data[:i],
				append(append([]byte(nil), data[:i]...), data[i+1:]...),
				func() []byte { c := append([]byte(nil), data...); c[i] ^= 0x55; return c }(),
			}
			for _, v := range variants {
				for _, ext := range exts {
					_, err := decodeAll("x"+ext, v, Options{SearchZip: true})
					var e *Error
					if err != nil && !errors.As(err, &e) {
						t.Fatalf("%s on %s[%d]: error %T %q is not *Error", ext, name, i, err, err)
					}
				}
			}
		}
	}
}
