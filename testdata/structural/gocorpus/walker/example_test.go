package walker_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/evgrep/evgrep/walker"
	"github.com/evgrep/evgrep/walker/ignore"
	"github.com/evgrep/evgrep/walker/types"
)

// Example fills Options the way the CLI glue does for
// `rg --files --sort path -g '!*.md' -t rust -t md DIR`.
func Example() {
	dir, err := os.MkdirTemp("", "walker-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	for _, f := range []string{".gitignore", "src/main.rs", "src/gen.rs", "README.md", "notes.txt", ".hidden.rs"} {
		p := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, nil, 0o644)
	}
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("gen.rs\n"), 0o644)

	opts := walker.DefaultOptions()
	opts.Sort = walker.SortPath
	opts.Globs = []ignore.OverrideGlob{{Pattern: "!*.md"}}
	tb, err := types.FromFlags(types.Flags{Select: []string{"rust", "md"}})
	if err != nil {
		panic(err)
	}
	if opts.Types, err = tb.Build(); err != nil {
		panic(err)
	}
	opts.OnError = func(err error) { fmt.Fprintln(os.Stderr, err) }
	opts.OnIgnoreError = opts.OnError
	err = walker.Walk([]string{dir}, opts, func(e walker.Entry) bool {
		rel, _ := filepath.Rel(dir, e.Path)
		fmt.Println(rel)
		return true
	})
	if err != nil {
		panic(err)
	}
	// Output:
	// .hidden.rs
	// src/main.rs
}
