package litset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchCorpus is some Go source of the running toolchain (nil without).
func benchCorpus(b *testing.B) []byte {
	root := os.Getenv("GOROOT")
	if root == "" {
		root = "/usr/local/go"
	}
	var buf []byte
	filepath.WalkDir(filepath.Join(root, "src", "net"), func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".go") && len(buf) < 8<<20 {
			data, _ := os.ReadFile(p)
			buf = append(buf, data...)
		}
		return nil
	})
	if len(buf) == 0 {
		b.Skip("no Go sources")
	}
	return buf
}

var benchTerms = strings.Fields("Reader Writer buffer context errors strings bytes fmt.Errorf return nil func make append len( panic copy close defer select chan interface struct import package const var type range break continue goto switch case default else for if Mutex Lock Unlock sync atomic unsafe Pointer uintptr int64 uint32 float64 string byte rune error Println Print os.Open Errorf json Marshal Unmarshal t.Fatal t.Errorf Benchmark runtime TODO")

func benchLits() [][]byte {
	var l [][]byte
	for _, t := range benchTerms {
		l = append(l, []byte(t))
	}
	return l
}

// BenchmarkFirstEnd scans the corpus for the first end of any literal,
// again and again (the line finder's loop).
func BenchmarkFirstEnd(b *testing.B) {
	buf := benchCorpus(b)
	s := New(benchLits())
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		for at := 0; at < len(buf); {
			e := s.FirstEnd(buf, at)
			if e < 0 {
				break
			}
			at = e
		}
	}
}

// BenchmarkAllEach reports every occurrence in the corpus.
func BenchmarkAllEach(b *testing.B) {
	buf := benchCorpus(b)
	a := NewAll(benchLits(), false)
	b.SetBytes(int64(len(buf)))
	n := 0
	for b.Loop() {
		a.Each(buf, func(lit, end int) bool { n++; return true })
	}
}
