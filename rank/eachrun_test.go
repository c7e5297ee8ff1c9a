package rank

import (
	gobuild "go/build"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unicode/utf8"
)

// eachRunRef is eachRun written plainly, one character at a time: the
// oracle of the table-driven scan.
func eachRunRef(text []byte, fn func(w []byte)) {
	i := 0
	for i < len(text) {
		r, n := utf8.DecodeRune(text[i:])
		if !isWord(r) {
			i += n
			continue
		}
		j := i + n
		for j < len(text) {
			c := text[j]
			if c == '-' && j+1 < len(text) && isASCIIAlnum(text[j+1]) && isASCIIAlnum(text[j-1]) {
				j++
				continue
			}
			r, n := utf8.DecodeRune(text[j:])
			if !isWord(r) {
				break
			}
			j += n
		}
		fn(text[i:j])
		i = j
	}
}

func runsOf(scan func([]byte, func([]byte)), text []byte) []string {
	var out []string
	scan(text, func(w []byte) { out = append(out, string(w)) })
	return out
}

// The table-driven eachRun finds the runs eachRunRef finds: hand cases,
// random bytes (invalid UTF-8 among them) and, when GOROOT is there, the
// files of GOROOT/src/unicode and GOROOT/src/strings (differential).
func TestEachRunMatchesRef(t *testing.T) {
	texts := []string{
		"", "a", "-", "a-b", "a--b", "-a-", "a-", "_-a", "a_-b", "x1-2y", "é-a", "a-é",
		"route-context ünïcode ΣΑΣ x\u00a0y 日本語 a\xffb \xc3 \xe2\x82", "foo(bar, baz_qux) // kebab-case-name",
		"١٢٣ digits ٣a", "\u2028line\u2029", "a\u0301b",
	}
	check := func(text []byte) {
		t.Helper()
		if got, want := runsOf(eachRun, text), runsOf(eachRunRef, text); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: runs %q, want %q", text, got, want)
		}
	}
	for _, s := range texts {
		check([]byte(s))
	}
	rng := rand.New(rand.NewSource(7))
	alphabet := []string{"a", "Z", "0", "_", "-", " ", ".", "é", "日", "\xff", "\xc3", "١", "\u00a0"}
	for i := 0; i < 20000; i++ {
		var b []byte
		for k := rng.Intn(12); k > 0; k-- {
			b = append(b, alphabet[rng.Intn(len(alphabet))]...)
		}
		check(b)
	}
	for _, dir := range []string{"unicode", "strings"} {
		root := filepath.Join(gobuild.Default.GOROOT, "src", dir)
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				if src, err := os.ReadFile(p); err == nil {
					check(src)
				}
			}
			return nil
		})
	}
}

func FuzzEachRun(f *testing.F) {
	f.Add([]byte("route-context ünïcode a\xffb"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := runsOf(eachRun, b), runsOf(eachRunRef, b); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: runs %q, want %q", b, got, want)
		}
	})
}

// BenchmarkEachRun scans the files of GOROOT/src/net (skipped without
// GOROOT).
func BenchmarkEachRun(b *testing.B) {
	var files [][]byte
	size := 0
	filepath.WalkDir(filepath.Join(gobuild.Default.GOROOT, "src", "net"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if src, err := os.ReadFile(p); err == nil {
				files, size = append(files, src), size+len(src)
			}
		}
		return nil
	})
	if len(files) == 0 {
		b.Skip("no GOROOT/src")
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			eachRun(f, func([]byte) { n++ })
		}
	}
}
