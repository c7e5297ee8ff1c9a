// Command walkfiles prints the files the walker yields, one per line, like
// `rg --files`. It exists to time the walker against rg and to try it by
// hand; it accepts only a few of rg's flags: --hidden, --no-ignore,
// --no-ignore-parent, --no-require-git, -L, -j N, --max-depth N,
// --sort path, -g GLOB, -t TYPE, -T TYPE, then paths.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"sync"

	"github.com/evgrep/evgrep/walker"
	"github.com/evgrep/evgrep/walker/ignore"
	"github.com/evgrep/evgrep/walker/types"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	opts := walker.DefaultOptions()
	var tf types.Flags
	var roots []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() (string, bool) {
			if i+1 >= len(args) {
				fmt.Fprintf(os.Stderr, "walkfiles: %s needs a value\n", a)
				return "", false
			}
			i++
			return args[i], true
		}
		var ok = true
		var v string
		switch a {
		case "--hidden":
			opts.Hidden = true
		case "--no-ignore":
			opts.NoIgnore = true
		case "--no-ignore-parent":
			opts.NoIgnoreParent = true
		case "--no-require-git":
			opts.RequireGit = false
		case "-L":
			opts.Follow = true
		case "-j", "--max-depth":
			if v, ok = next(); ok {
				n, err := strconv.Atoi(v)
				if err != nil {
					fmt.Fprintf(os.Stderr, "walkfiles: %s: %v\n", a, err)
					return 2
				}
				if a == "-j" {
					opts.Threads = n
				} else {
					opts.MaxDepth = n
				}
			}
		case "--sort":
			if v, ok = next(); ok && v == "path" {
				opts.Sort = walker.SortPath
			}
		case "-g":
			if v, ok = next(); ok {
				opts.Globs = append(opts.Globs, ignore.OverrideGlob{Pattern: v})
			}
		case "-t":
			if v, ok = next(); ok {
				tf.Select = append(tf.Select, v)
			}
		case "-T":
			if v, ok = next(); ok {
				tf.Negate = append(tf.Negate, v)
			}
		default:
			roots = append(roots, a)
		}
		if !ok {
			return 2
		}
	}
	if len(tf.Select)+len(tf.Negate) > 0 {
		b, err := types.FromFlags(tf)
		if err == nil {
			opts.Types, err = b.Build()
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	var mu sync.Mutex
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	failed := false
	opts.OnError = func(err error) {
		mu.Lock()
		defer mu.Unlock()
		failed = true
		fmt.Fprintln(os.Stderr, err)
	}
	opts.OnIgnoreError = opts.OnError
	err := walker.Walk(roots, opts, func(e walker.Entry) bool {
		mu.Lock()
		out.WriteString(e.Path)
		out.WriteByte('\n')
		mu.Unlock()
		return true
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if err := out.Flush(); err != nil {
		return 2
	}
	if failed {
		return 2
	}
	return 0
}
