package input

// Differential tests: the same input through rg 13 and through this
// package. rg is the reference of internal/testref: live, or its recorded
// answers. Run live, a -z case is skipped when the decompression program
// rg would run is not installed (.ci/run installs them); from the record,
// when it was not installed where the goldens were made.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/testref"
)

// rgEncodingArgs returns rg's arguments for an Options.Encoding value.
func rgEncodingArgs(enc string) []string {
	if enc == "" {
		return nil
	}
	return []string{"-E", enc}
}

// linesCase is `rg -a -N [-z] [-E enc] "" file` in file's directory.
func linesCase(file string, opts Options) testref.Case {
	args := []string{"-a", "-N", "--color=never"}
	if opts.SearchZip {
		args = append(args, "-z")
	}
	args = append(args, rgEncodingArgs(opts.Encoding)...)
	args = append(args, "--", "", filepath.Base(file))
	return rgCase(filepath.Dir(file), file, args...)
}

// rgLines answers linesCase.
func rgLines(t *testing.T, file string, opts Options) ([]byte, string, int) {
	t.Helper()
	return runCase(t, linesCase(file, opts))
}

// canDecompress reports whether rg's answer for the -z case of file is
// meaningful: live, the program rg runs is installed; else it was where
// the answer was recorded.
func canDecompress(t *testing.T, file string) bool {
	g := testref.Open(t)
	if g.Live() {
		return toolFor(file)
	}
	return g.Has(linesCase(file, Options{SearchZip: true}))
}

func TestEncodingLabelsAgainstRG(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	labels := []string{
		"auto", "none", "AUTO", "NONE", "", " auto", "foo", "utf-8", "UTF8", " utf-8 ", "\tutf-8\n",
		"utf-8\v", "utf 8", "unicode-1-1-utf-8", "x-unicode20utf8", "866", "ibm866", "l2", "latin2",
		"iso_8859-2:1987", "iso-8859-8-i", "logical", "visual", "koi", "koi8-ru", "mac", "x-mac-ukrainian",
		"tis-620", "ascii", "us-ascii", "latin1", "iso-8859-1", "windows-1252", "cp1252", "l5",
		"chinese", "gb2312", "gbk", "x-gbk", "gb18030", "big5", "big5-hkscs", "euc-jp", "iso-2022-jp",
		"sjis", "ms932", "windows-31j", "euc-kr", "korean", "windows-949", "utf-16", "utf-16le",
		"utf-16be", "unicodefffe", "unicodefeff", "ucs-2", "csunicode", "iso-10646-ucs-2",
		"x-user-defined", "replacement", "iso-2022-kr", "csiso2022kr", "hz-gb-2312", "iso-2022-cn",
		"iso-2022-cn-ext", "utf-7", "utf-32", "ucs-4", "cp437", "latin9", "l9", "iso-8859-16",
		"\u212Aoi8-r", "\xff",
	}
	for _, label := range labels {
		_, stderr, code := runRG(t, dir, "-E", label, "hi", "a.txt")
		err := ValidateEncoding(label)
		if (code == 2) != (err != nil) {
			t.Errorf("label %q: rg exit %d, ValidateEncoding %v", label, code, err)
			continue
		}
		msg := strings.TrimPrefix(stderr, "rg: error parsing flag -E: ")
		if msg == "value is not valid UTF-8\n" {
			continue // the command line refuses the argument before the label is read
		}
		if err != nil && msg != err.Error()+"\n" {
			t.Errorf("label %q: rg says %q, we say %q", label, stderr, err.Error())
		}
	}
}

func TestDecodeCasesAgainstRG(t *testing.T) {
	dir := t.TempDir()
	for i, tt := range decodeCases {
		file := filepath.Join(dir, fmt.Sprintf("case%d.txt", i))
		if err := os.WriteFile(file, []byte(tt.in), 0o644); err != nil {
			t.Fatal(err)
		}
		out, stderr, code := rgLines(t, file, Options{Encoding: tt.enc})
		if code == 2 {
			t.Fatalf("%s: rg failed: %s", tt.name, stderr)
		}
		if want := asRGLines([]byte(tt.want)); !bytes.Equal(out, want) {
			t.Errorf("%s: rg prints %q, the case expects %q", tt.name, out, want)
		}
	}
}

// exactEncodings decode every input as rg does; cjkEncodings decode valid
// text as rg does but differ on some invalid sequences (see the package
// documentation).
var (
	exactEncodings = []string{
		"", "none", "utf-8", "utf-16le", "utf-16be", "latin1", "windows-1250", "windows-1251",
		"windows-1253", "windows-1255", "windows-874", "iso-8859-2", "iso-8859-3", "iso-8859-6",
		"iso-8859-7", "iso-8859-8", "iso-8859-8-i", "iso-8859-16", "koi8-r", "koi8-u", "macintosh",
		"ibm866", "x-mac-cyrillic", "x-user-defined", "euc-kr",
	}
	cjkEncodings = []string{"sjis", "euc-jp", "iso-2022-jp", "big5", "gbk", "gb18030"}
)

// TestEncodingsAgainstRG decodes fixtures, deterministic noise and the
// error paths of multi-byte encodings, and compares with rg's decoding.
func TestEncodingsAgainstRG(t *testing.T) {
	inputs := map[string][]byte{}
	for _, name := range []string{"utf16le-bom.txt", "utf16be-bom.txt", "utf16le-nobom.txt",
		"utf16le-broken.txt", "utf8-bom.txt", "latin1.txt", "shift_jis.txt", "euc-jp.txt", "invalid-utf8.txt", "plain.txt"} {
		inputs[name] = readFixture(t, name)
	}
	for seed := uint32(1); seed <= 6; seed++ {
		inputs[fmt.Sprintf("noise%d", seed)] = pseudoRandom(400, seed)
	}
	// Every high byte followed by every kind of byte: the error paths.
	var pairs []byte
	for l := 0x80; l <= 0xff; l++ {
		for _, tr := range []byte{0x00, 0x0a, 0x30, 0x41, 0x5a, 0x7f, 0x80, 0xa1, 0xc0, 0xfe, 0xff} {
			pairs = append(pairs, 'X', byte(l), tr, 'Z', '\n')
		}
	}
	inputs["pairs"] = pairs
	dir := t.TempDir()
	for name, data := range inputs {
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, enc := range exactEncodings {
			compareWithRG(t, file, Options{Encoding: enc})
		}
	}
}

// TestCJKTextAgainstRG decodes valid text in the multi-byte encodings.
func TestCJKTextAgainstRG(t *testing.T) {
	const sample = "ASCII line\n日本語のテキスト、カタカナ　ｶﾀｶﾅ ①②\n中文简体 繁體中文 龍\n한국어 텍스트\n€ ¥ ‾ — end\n"
	dir := t.TempDir()
	for _, enc := range cjkEncodings {
		_, e, ok := lookupLabel(enc)
		if !ok {
			t.Fatalf("label %s", enc)
		}
		// Encode what the encoding can represent (the rest is dropped),
		// in one piece so that ISO-2022-JP switches modes only as needed.
		var keep []rune
		for _, r := range sample {
			if _, err := e.NewEncoder().Bytes([]byte(string(r))); err == nil {
				keep = append(keep, r)
			}
		}
		text, err := e.NewEncoder().Bytes([]byte(string(keep)))
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, enc+".txt")
		if err := os.WriteFile(file, text, 0o644); err != nil {
			t.Fatal(err)
		}
		compareWithRG(t, file, Options{Encoding: enc})
	}
	for _, tt := range []struct{ file, enc string }{{"shift_jis.txt", "sjis"}, {"euc-jp.txt", "euc-jp"}} {
		compareWithRG(t, fixture(tt.file), Options{Encoding: tt.enc})
	}
}

// compareWithRG checks that Open yields what rg prints for file.
func compareWithRG(t *testing.T, file string, opts Options) {
	t.Helper()
	out, stderr, code := rgLines(t, file, opts)
	if code == 2 {
		t.Fatalf("%s %+v: rg failed: %s", file, opts, stderr)
	}
	got, err := openAll(file, opts)
	if err != nil {
		t.Fatalf("%s %+v: %v", file, opts, err)
	}
	if want := asRGLines(got); !bytes.Equal(out, want) {
		i := firstDiff(out, want)
		lo := max(i-12, 0)
		t.Errorf("%s %+v: differs from rg at byte %d:\nrg  %q\nwe  %q", filepath.Base(file), opts, i,
			out[lo:min(i+24, len(out))], want[lo:min(i+24, len(want))])
	}
}

// toolFor reports whether the program rg 13 runs for path is installed;
// without it rg searches the compressed bytes.
func toolFor(path string) bool {
	f := formatFor(path)
	if f == nil {
		return true
	}
	if _, err := exec.LookPath(f.tool); err != nil {
		return false
	}
	if f == formatCompress {
		// The messages imitated are those of gzip's uncompress script
		// (Debian's); ncompress's own uncompress words them otherwise.
		out, _ := exec.Command(f.tool, "--version").CombinedOutput()
		return bytes.Contains(out, []byte("gzip"))
	}
	return true
}

func TestDecompressFixturesAgainstRG(t *testing.T) {
	names := []string{"plain.txt.gz", "plain.txt.bz2", "plain.txt.xz", "plain.txt.lz4", "plain.txt.lzma",
		"plain.txt.br", "plain.txt.zst", "plain.txt.Z", "double.txt.gz", "double.txt.bz2", "double.txt.xz",
		"double.txt.lz4", "double.txt.zst", "gzip-reads-lzw.gz", "lzw-name-gzip-data.Z", "xz-reads-lzma.xz",
		"lzw-b10.txt.Z", "lzw-b12.txt.Z", "lzw-b16.txt.Z", "utf16le-bom.txt.gz", "plain.txt"}
	for _, name := range names {
		if !canDecompress(t, fixture(name)) {
			t.Logf("%s: skipped, %s is not installed (or was not where the goldens were made)", name, formatFor(name).tool)
			continue
		}
		for _, opts := range []Options{{SearchZip: true}, {SearchZip: false, Encoding: "none"}} {
			out, stderr, code := rgLines(t, fixture(name), opts)
			if code == 2 {
				t.Fatalf("%s: rg failed: %s", name, stderr)
			}
			got, err := openAll(fixture(name), opts)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if want := asRGLines(got); !bytes.Equal(out, want) {
				t.Errorf("%s %+v: rg prints %d bytes, we read %d (first difference at %d)",
					name, opts, len(out), len(want), firstDiff(out, want))
			}
		}
	}
}

func TestDecompressErrorsAgainstRG(t *testing.T) {
	dir := t.TempDir()
	for i, tt := range decompressErrorCases(t) {
		// The same name in its own directory, so that messages match.
		sub := filepath.Join(dir, fmt.Sprint(i))
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(sub, tt.file)
		if err := os.WriteFile(file, tt.data, 0o644); err != nil {
			t.Fatal(err)
		}
		if !canDecompress(t, file) {
			continue
		}
		out, stderr, _ := rgLines(t, file, Options{SearchZip: true})
		got, err := decodeAll(tt.file, tt.data, Options{SearchZip: true})
		wantErr := ""
		if err != nil {
			wantErr = tt.file + ": " + err.Error() + "\n"
		}
		if stderr = strings.TrimPrefix(stderr, "rg: "); stderr != wantErr {
			t.Errorf("%s: rg reports\n%q\nwe report\n%q", tt.name, stderr, wantErr)
		}
		// After a failure the decoders differ in how much they had
		// delivered (and rg drops an unterminated last line), so the
		// bytes are compared only for inputs that decode cleanly.
		if want := asRGLines(got); err == nil && !bytes.Equal(out, want) {
			t.Errorf("%s: rg prints %q, we read %q", tt.name, out, want)
		}
	}
}

func TestOpenErrorsAgainstRG(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop", filepath.Join(dir, "loop")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"missing", "loop", "sub/missing"} {
		_, stderr, code := runRG(t, dir, "x", name)
		_, err := Open(filepath.Join(dir, name), Options{})
		if err == nil {
			t.Fatalf("%s: Open succeeded", name)
		}
		// rg's command line adds "rg: " and, for a single path that is not
		// a folder (searched without the parallel walk), "IO error for
		// operation on PATH: ".
		stderr = strings.Replace(strings.TrimPrefix(stderr, "rg: "), "IO error for operation on "+name+": ", "", 1)
		if want := name + ": " + err.Error() + "\n"; code != 2 || stderr != want {
			t.Errorf("%s: rg exit %d %q, we say %q", name, code, stderr, want)
		}
	}
}
