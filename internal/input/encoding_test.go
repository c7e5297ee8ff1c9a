package input

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestValidateEncoding(t *testing.T) {
	tests := []struct {
		label   string
		wantErr string // "" = accepted
	}{
		{"auto", ""},
		{"none", ""},
		{"utf-8", ""},
		{"UTF-8", ""},
		{"utf8", ""},
		{" utf-8 ", ""},
		{"\tutf-8\n", ""},
		{"\f\rutf-8", ""},
		{"latin1", ""},
		{"sjis", ""},
		{"Shift_JIS", ""},
		{"utf-16le", ""},
		{"utf-16", ""},
		{"UnicodeFFFE", ""},
		{"euc-jp", ""},
		{"gbk", ""},
		{"x-user-defined", ""},
		{"iso_8859-1:1987", ""},
		{"unicode-1-1-utf-8", ""},
		{"foo", "grep config error: unknown encoding: foo"},
		{"", "grep config error: unknown encoding: "},
		{"AUTO", "grep config error: unknown encoding: AUTO"},
		{"NONE", "grep config error: unknown encoding: NONE"},
		{" auto", "grep config error: unknown encoding:  auto"},
		{"utf-8\v", "grep config error: unknown encoding: utf-8\v"},
		{"utf-8\u00a0", "grep config error: unknown encoding: utf-8\u00a0"},
		{"utf 8", "grep config error: unknown encoding: utf 8"},
		{"replacement", "grep config error: unknown encoding: replacement"},
		{"iso-2022-kr", "grep config error: unknown encoding: iso-2022-kr"},
		{"hz-gb-2312", "grep config error: unknown encoding: hz-gb-2312"},
		{"\u212Aoi8-r", "grep config error: unknown encoding: \u212Aoi8-r"}, // KELVIN SIGN folds to k only outside ASCII
		{"\xff", "grep config error: unknown encoding: \uFFFD"},
		{"a\xe2\x82b", "grep config error: unknown encoding: a\uFFFDb"},
	}
	for _, tt := range tests {
		err := ValidateEncoding(tt.label)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("ValidateEncoding(%q) = %q, want nil", tt.label, err)
		case tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr):
			t.Errorf("ValidateEncoding(%q) = %v, want %q", tt.label, err, tt.wantErr)
		case tt.wantErr != "":
			var ue *UnknownEncodingError
			if !errors.As(err, &ue) || ue.Label != tt.label {
				t.Errorf("ValidateEncoding(%q): error %#v", tt.label, err)
			}
			if _, err := Open(fixture("plain.txt"), Options{Encoding: tt.label}); tt.label != "" && err == nil {
				t.Errorf("Open accepted encoding %q", tt.label)
			}
		}
	}
}

// decodeCase is one input and what rg 13 yields for it under an -E value
// (observed with rg 13.0.0).
type decodeCase struct {
	name string
	in   string
	enc  string
	want string
}

var decodeCases = []decodeCase{
	{"plain", "hi\n", "", "hi\n"},
	{"invalid UTF-8 passes", "hi\xe9\n", "", "hi\xe9\n"},
	{"UTF-8 BOM stripped", "\xef\xbb\xbfhi\n", "", "hi\n"},
	{"UTF-8 BOM then invalid passes", "\xef\xbb\xbfhi\xe9\n", "", "hi\xe9\n"},
	{"UTF-8 BOM kept with none", "\xef\xbb\xbfhi\n", "none", "\xef\xbb\xbfhi\n"},
	{"UTF-16LE BOM", "\xff\xfeh\x00i\x00\n\x00", "", "hi\n"},
	{"UTF-16BE BOM", "\xfe\xff\x00h\x00i\x00\n", "", "hi\n"},
	{"UTF-16LE BOM kept with none", "\xff\xfeh\x00", "none", "\xff\xfeh\x00"},
	{"UTF-16 without BOM passes", "h\x00i\x00\n\x00", "", "h\x00i\x00\n\x00"},
	{"UTF-16LE label without BOM", "h\x00i\x00\n\x00", "utf-16le", "hi\n"},
	{"utf-16 label is LE", "A\x00\n\x00", "utf-16", "A\n"},
	{"UTF-16BE label without BOM", "\x00h\x00i", "utf-16be", "hi"},
	{"BE BOM overrides LE label", "\xfe\xff\x00h\x00i\x00\n", "utf-16le", "hi\n"},
	{"LE BOM overrides latin1 label", "\xff\xfeh\x00i\x00", "latin1", "hi"},
	{"BE BOM overrides utf-8 label", "\xfe\xff\x00h\x00i", "utf-8", "hi"},
	{"UTF-8 BOM stripped, LE label stays", "\xef\xbb\xbfhi\n", "utf-16le", "\u6968\uFFFD"},
	{"UTF-8 BOM stripped, latin1 label stays", "\xef\xbb\xbfhi\xe9", "latin1", "hi\u00e9"},
	{"only LE BOM", "\xff\xfe", "", ""},
	{"only BE BOM", "\xfe\xff", "", ""},
	{"only UTF-8 BOM", "\xef\xbb\xbf", "", ""},
	{"two BOM bytes", "\xef\xbb", "", "\xef\xbb"},
	{"two BOM bytes and more", "\xef\xbbA", "", "\xef\xbbA"},
	{"LE BOM and odd byte", "\xff\xfeA", "", "\uFFFD"},
	{"BE BOM and odd byte", "\xfe\xff\x00", "", "\uFFFD"},
	{"odd final byte", "\xff\xfeA\x00\n", "", "A\uFFFD"},
	{"odd byte after newline", "\xff\xfeA\x00\n\x00x", "", "A\n\uFFFD"},
	{"lone lead surrogate", "\xff\xfe\x00\xd8A\x00\n\x00", "", "\uFFFDA\n"},
	{"lone trail surrogate", "\xff\xfe\x00\xdcA\x00\n\x00", "", "\uFFFDA\n"},
	{"two leads", "\xff\xfe\x00\xd8\x00\xd8A\x00\n\x00", "", "\uFFFD\uFFFDA\n"},
	{"surrogate pair", "\xff\xfe=\xd8\x00\xdeA\x00", "", "\U0001F600A"},
	{"BE surrogate pair", "\xfe\xff\xd8\x3d\xde\x00", "", "\U0001F600"},
	{"lead at end", "\xff\xfeA\x00\n\x00\x00\xd8", "", "A\n\uFFFD"},
	{"lead and odd byte at end", "\xff\xfeA\x00\n\x00\x00\xd8x", "", "A\n\uFFFD"},
	{"BE lead then letter", "\xfe\xff\xd8\x00\x00A\x00\n", "", "\uFFFDA\n"},
	{"utf-8 label replaces invalid", "hi\xe9\n", "utf-8", "hi\uFFFD\n"},
	{"utf-8 label maximal subparts",
		"a\xe2\x82b\xf0\x80c\xed\xa0\x80d\xff\xfee\xf4\x90\x80\x80f\xc0\xafg\n", "utf-8",
		"a\uFFFDb\uFFFD\uFFFDc\uFFFD\uFFFD\uFFFDd\uFFFD\uFFFDe\uFFFD\uFFFD\uFFFD\uFFFDf\uFFFD\uFFFDg\n"},
	{"utf-8 label truncated at end", "ab\xe2\x82", "utf-8", "ab\uFFFD"},
	{"utf-8 label keeps valid", "na\xc3\xafve \xf0\x9f\x98\x80 \xef\xbf\xbd", "utf-8", "naïve 😀 \uFFFD"},
	{"utf-8 label strips BOM", "\xef\xbb\xbfhi\xe9\n", "utf-8", "hi\uFFFD\n"},
	{"latin1 is windows-1252", "caf\xe9 \x80\n", "latin1", "café €\n"},
	{"sjis", "\x93\xfa\x96\x7b\x8c\xea", "sjis", "日本語"},
	{"euc-jp", "\xc6\xfc\xcb\xdc\xb8\xec", "euc-jp", "日本語"},
	{"gbk decodes gb18030 four-byte", "\x81\x30\x81\x30", "gbk", "\u0080"},
	{"gbk 0x80 is euro", "\x80", "gbk", "€"},
	{"x-user-defined", "a\x80\xff", "x-user-defined", "a\uF780\uF7FF"},
	{"windows-1252 C1 bytes", "\x81\x8d\x8f\x90\x9d", "windows-1252", "\u0081\u008d\u008f\u0090\u009d"},
	{"iso-8859-2 C1 bytes", "\x80\x9f\xa1", "iso-8859-2", "\u0080\u009f\u0104"},
	{"iso-8859-8-i", "\x80\xe0", "iso-8859-8-i", "\u0080\u05d0"},
	{"euc-kr final lead dropped", "a\n\xb0", "euc-kr", "a\n"},
	{"euc-kr final lead dropped after text", "a\xb0", "euc-kr", "a"},
	{"euc-kr pair", "\xb0\xa1\n", "euc-kr", "\uac00\n"},
	{"big5 final lead dropped", "a\n\xa4", "big5", "a\n"},
	{"euc-jp final lead replaced", "a\n\xb0", "euc-jp", "a\n\uFFFD"},
	{"gbk final lead replaced", "a\n\xb0", "gbk", "a\n\uFFFD"},
	{"empty", "", "", ""},
	{"empty with label", "", "utf-16le", ""},
}

func TestDecode(t *testing.T) {
	for _, tt := range decodeCases {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{Encoding: tt.enc}
			readers := map[string]func(io.Reader) io.Reader{
				"whole":    func(r io.Reader) io.Reader { return r },
				"one byte": iotest.OneByteReader,
				"half":     iotest.HalfReader,
				"data+EOF": iotest.DataErrReader,
			}
			for rname, mk := range readers {
				got, err := io.ReadAll(Wrap(mk(strings.NewReader(tt.in)), opts))
				if err != nil {
					t.Fatalf("%s: %v", rname, err)
				}
				if string(got) != tt.want {
					t.Fatalf("%s: got %q, want %q", rname, got, tt.want)
				}
			}
			// Reads into buffers smaller than the BOM.
			w := Wrap(strings.NewReader(tt.in), opts)
			var got []byte
			buf := make([]byte, 1)
			for {
				n, err := w.Read(buf)
				got = append(got, buf[:n]...)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if string(got) != tt.want {
				t.Fatalf("1-byte reads: got %q, want %q", got, tt.want)
			}
			// And through a file, as Open reads it.
			file, err := openAll(writeTemp(t, "f.txt", []byte(tt.in)), opts)
			if err != nil {
				t.Fatal(err)
			}
			if string(file) != tt.want {
				t.Fatalf("Open: got %q, want %q", file, tt.want)
			}
		})
	}
}

func TestDecodeFixtures(t *testing.T) {
	tests := []struct {
		file, enc, want string
	}{
		{"utf16le-bom.txt", "", "hello UTF-16LE\r\nnaïve 日本 \U0001F600\nend\n"},
		{"utf16be-bom.txt", "", "hello UTF-16BE\nnaïve 日本 \U0001F600\nend\n"},
		{"utf16le-nobom.txt", "utf-16le", "hello UTF-16LE without BOM\n"},
		{"utf16le-broken.txt", "", "a\uFFFDb\uFFFDc\n\U0001F600\n\uFFFD\uFFFDd\n\uFFFD"},
		{"utf8-bom.txt", "", "hello UTF-8 with BOM\nnaïve\n"},
		{"latin1.txt", "latin1", "café naïve © latin-1 / windows-1252 €\n"},
		{"shift_jis.txt", "sjis", "hello Shift_JIS 日本語 あ\n"},
		{"euc-jp.txt", "euc-jp", "hello EUC-JP 日本語\n"},
		{"invalid-utf8.txt", "", "bad UTF-8: \xe2\x82 x \xf0\x80 y \xed\xa0\x80 z \xff\n"},
		{"invalid-utf8.txt", "utf-8", "bad UTF-8: \uFFFD x \uFFFD\uFFFD y \uFFFD\uFFFD\uFFFD z \uFFFD\n"},
	}
	for _, tt := range tests {
		t.Run(tt.file+"/"+tt.enc, func(t *testing.T) {
			got, err := openAll(fixture(tt.file), Options{Encoding: tt.enc})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestWrap(t *testing.T) {
	src := strings.NewReader("x")
	if Wrap(src, Options{Encoding: "none"}) != io.Reader(src) {
		t.Error("Wrap with none must return the reader itself")
	}
	_, err := io.ReadAll(Wrap(strings.NewReader("x"), Options{Encoding: "bogus"}))
	if err == nil || err.Error() != "grep config error: unknown encoding: bogus" {
		t.Errorf("Wrap with an unknown label: %v", err)
	}
	// A read error after the sniffed bytes is delivered after them.
	boom := errors.New("boom")
	r := Wrap(io.MultiReader(strings.NewReader("ab"), iotest.ErrReader(boom)), Options{})
	got, err := io.ReadAll(r)
	if string(got) != "ab" || !errors.Is(err, boom) {
		t.Errorf("got %q, %v", got, err)
	}
	r = Wrap(io.MultiReader(strings.NewReader("\xff\xfea\x00"), iotest.ErrReader(boom)), Options{})
	got, err = io.ReadAll(r)
	if string(got) != "a" || !errors.Is(err, boom) {
		t.Errorf("UTF-16: got %q, %v", got, err)
	}
}

func TestRaw(t *testing.T) {
	tests := []struct {
		path string
		head string
		opts Options
		want bool
	}{
		{"a.txt", "hel", Options{}, true},
		{"a.txt", "", Options{}, true},
		{"a.txt", "h", Options{Encoding: "auto"}, true},
		{"a.txt", "\xef\xbb\xbf", Options{}, false},
		{"a.txt", "\xef\xbb", Options{}, true},
		{"a.txt", "\xff\xfeh", Options{}, false},
		{"a.txt", "\xfe\xff", Options{}, false},
		{"a.txt", "\xef\xbb\xbf", Options{Encoding: "none"}, true},
		{"a.txt", "\xff\xfeh", Options{Encoding: "none"}, true},
		{"a.txt", "hel", Options{Encoding: "utf-8"}, false},
		{"a.txt", "hel", Options{Encoding: "latin1"}, false},
		{"a.txt", "hel", Options{Encoding: "bogus"}, false},
		{"a.gz", "hel", Options{}, true},
		{"a.gz", "hel", Options{SearchZip: true}, false},
		{"a.gz", "hel", Options{SearchZip: true, Encoding: "none"}, false},
		{"a.gz.txt", "hel", Options{SearchZip: true}, true},
	}
	for _, tt := range tests {
		if got := Raw(tt.path, []byte(tt.head), tt.opts); got != tt.want {
			t.Errorf("Raw(%q, %q, %+v) = %v, want %v", tt.path, tt.head, tt.opts, got, tt.want)
		}
		// Raw must agree with what Open yields.
		if tt.opts.Encoding == "bogus" || (tt.opts.SearchZip && CompressionFormat(tt.path) != "") {
			continue
		}
		data := []byte(tt.head + "lo\xe9\n")
		got, err := openAll(writeTemp(t, tt.path, data), tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		if tt.want && !bytes.Equal(got, data) {
			t.Errorf("Raw(%q, %q, %+v) is true but Open changed the bytes to %q", tt.path, tt.head, tt.opts, got)
		}
		if !tt.want && bytes.Equal(got, data) {
			t.Errorf("Raw(%q, %q, %+v) is false but Open kept the bytes", tt.path, tt.head, tt.opts)
		}
	}
}
