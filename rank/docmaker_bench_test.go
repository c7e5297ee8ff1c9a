package rank

import (
	gobuild "go/build"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkDocMakerGoroot makes the documents of GOROOT/src/net and
// GOROOT/src/runtime with one DocMaker (skipped without GOROOT): the
// chunking and term counting of a cold build.
func BenchmarkDocMakerGoroot(b *testing.B) {
	type file struct {
		path string
		src  []byte
	}
	var files []file
	for _, dir := range []string{"net", "runtime"} {
		root := filepath.Join(gobuild.Default.GOROOT, "src", dir)
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				if src, err := os.ReadFile(p); err == nil {
					files = append(files, file{p, src})
				}
			}
			return nil
		})
	}
	if len(files) == 0 {
		b.Skip("no GOROOT/src")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dm := NewDocMaker(len(files))
		for _, f := range files {
			dm.Doc(f.path, revisionOf(""), f.src)
		}
	}
}
