package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/evgrep/evgrep/internal/astsearch"
	"github.com/evgrep/evgrep/structural"
	"github.com/evgrep/evgrep/walker"
)

// The rewrite cases (rewrites.txt, LANG<TAB>PATTERN<TAB>TEMPLATE a line,
// `\n` for a newline) are compared file by file: the answer to one is the
// set of files the rewrite changes, each as a span whose File is
// "PATH#SHA-256 of the rewritten file" (Start 0, End its length), so that
// two answers are the same exactly when the same files get the same bytes.

// loadRewrites reads rewrites.txt.
func loadRewrites(dir string) ([]testCase, error) {
	return readCaseLines(dir, "rewrites.txt", 3, "LANG<TAB>PATTERN<TAB>TEMPLATE", func(p []string) testCase {
		return testCase{rewrite: true, lang: p[0], pattern: p[1], template: p[2]}
	})
}

// fileSpan is the answer's entry for a rewritten file.
func fileSpan(rel string, data []byte) span {
	s := sha256.Sum256(data)
	return span{File: filepath.ToSlash(rel) + "#" + hex.EncodeToString(s[:]), End: len(data)}
}

// evgrepRewrite rewrites the case's matches over root in memory: the
// files it changes, and their new bytes by path (for the compile check).
func evgrepRewrite(c testCase, root string) ([]span, map[string][]byte, error) {
	lang, err := structural.LookupLang(c.lang)
	if err != nil {
		return nil, nil, err
	}
	p, err := structural.CompilePattern(lang, c.pattern)
	if err != nil {
		return nil, nil, err
	}
	o := &astsearch.Options{Roots: []string{root}, Lang: lang, Matcher: p, Literals: p.Literals()}
	o.Walk = walker.DefaultOptions()
	o.Walk.Threads = runtime.NumCPU()
	var out []span
	files := map[string][]byte{}
	var ferr error
	_, err = astsearch.Run(context.Background(), o, func(f *astsearch.File) {
		if f.Err != nil && ferr == nil {
			ferr = fmt.Errorf("%s: %v", f.Path, f.Err)
		}
		if len(f.Matches) == 0 {
			return
		}
		got := astsearch.Apply(f.Src, astsearch.Edits(f, c.template))
		if bytes.Equal(got, f.Src) {
			return
		}
		rel, _ := filepath.Rel(root, f.Path)
		out = append(out, fileSpan(rel, got))
		files[filepath.ToSlash(rel)] = got
	})
	if err == nil {
		err = ferr
	}
	return out, files, err
}

// astGrepRewrite runs `ast-grep run -p P -r T -l LANG -U .` over a copy
// of root and returns the files it changed.
func astGrepRewrite(bin string, c testCase, root string) ([]span, error) {
	tmp, err := os.MkdirTemp("", "structdiff-rewrite-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	cp := filepath.Join(tmp, "tree")
	if out, err := exec.Command("cp", "-a", root, cp).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("cp: %v: %s", err, out)
	}
	cmd := exec.Command(bin, "run", "-p", c.pattern, "-r", c.template, "-l", c.lang, "-U", ".")
	cmd.Dir = cp
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("ast-grep: %v: %s", err, firstLine(string(out)))
	}
	var out []span
	err = filepath.WalkDir(cp, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(cp, p)
		after, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		before, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			return err
		}
		if !bytes.Equal(before, after) {
			out = append(out, fileSpan(rel, after))
		}
		return nil
	})
	return out, err
}

// pyCompileFailures is the files of a Python rewrite that do not compile
// (what `python3 -m py_compile` compiles them with) though their original does: the rewritten
// files are written under a temporary folder and compiled by one python3.
func pyCompileFailures(root string, files map[string][]byte) ([]string, error) {
	py, err := exec.LookPath("python3")
	if err != nil {
		return nil, fmt.Errorf("python3 is needed to check the Python rewrites: %v", err)
	}
	tmp, err := os.MkdirTemp("", "structdiff-py-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	var list bytes.Buffer
	for rel, data := range files {
		dst := filepath.Join(tmp, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return nil, err
		}
		fmt.Fprintf(&list, "%s\t%s\n", filepath.Join(root, filepath.FromSlash(rel)), dst)
	}
	// For each pair: the original compiles and the rewrite does not.
	// py_compile compiles with compile(); calling it here writes no .pyc.
	const script = `import sys
def ok(p):
    try:
        with open(p, "rb") as f:
            compile(f.read(), p, "exec", dont_inherit=True)
        return True
    except (SyntaxError, ValueError):
        return False
for line in sys.stdin.read().splitlines():
    orig, new = line.split("\t")
    if ok(orig) and not ok(new):
        print(new)
`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = &list
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("python3: %v", err)
	}
	var bad []string
	for _, l := range strings.Fields(string(out)) {
		rel, _ := filepath.Rel(tmp, l)
		bad = append(bad, filepath.ToSlash(rel))
	}
	return bad, nil
}
