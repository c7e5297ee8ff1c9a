package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// goEnvTimeout bounds `go env GOROOT`.
const goEnvTimeout = 30 * time.Second

// Corpus is one prepared corpus.
type Corpus struct {
	// Name labels the corpus in reports ("goroot", "tiny", "large", or the
	// base name of a --corpus directory).
	Name string `json:"name"`
	// Kind selects the queries that run on it.
	Kind CorpusKind `json:"-"`
	// KindName is Kind for the JSON report.
	KindName string `json:"kind"`
	// Path is absolute.
	Path string `json:"path"`
	// Lang is the language of a Lang corpus.
	Lang string `json:"lang,omitempty"`
	// Files and Bytes describe its regular files (symlinks not followed).
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
}

// Target is where the corpus's queries run.
func (c Corpus) Target() Target {
	return Target{Path: c.Path, IsFile: c.Kind == Large}
}

// findGoroot is the GOROOT to use: the flag, else `go env GOROOT`.
func findGoroot(flagValue string) (string, error) {
	if flagValue != "" {
		return filepath.Abs(flagValue)
	}
	ctx, cancel := context.WithTimeout(context.Background(), goEnvTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %v (pass --goroot DIR)", err)
	}
	root := strings.TrimSpace(string(out))
	if root == "" {
		return "", errors.New("go env GOROOT printed nothing (pass --goroot DIR)")
	}
	return root, nil
}

// goVersion is the first line of GOROOT/VERSION, made safe for a file
// name, or "unknown".
func goVersion(goroot string) string {
	data, err := os.ReadFile(filepath.Join(goroot, "VERSION"))
	if err != nil {
		return "unknown"
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	v := strings.Map(func(r rune) rune {
		if r == '.' || r == '-' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') {
			return r
		}
		return '_'
	}, strings.TrimSpace(string(line)))
	if v == "" {
		return "unknown"
	}
	return v
}

// treeCorpus describes an existing directory tree.
func treeCorpus(name, dir string) (Corpus, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Corpus{}, err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return Corpus{}, err
	}
	if !st.IsDir() {
		return Corpus{}, fmt.Errorf("%s: not a directory", dir)
	}
	c := Corpus{Name: name, Kind: Tree, KindName: Tree.String(), Path: abs}
	c.Files, c.Bytes, err = countFiles(abs)
	return c, err
}

// countFiles counts the regular files under dir and their bytes.
func countFiles(dir string) (int, int64, error) {
	var files int
	var size int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			// An unreadable entry is the tools' problem, not the census's.
			return nil
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err == nil {
				files++
				size += info.Size()
			}
		}
		return nil
	})
	return files, size, err
}

// goFiles lists the regular .go files under dir in lexical order.
func goFiles(dir string, recursive bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && path != dir && !recursive {
			return fs.SkipDir
		}
		if d.Type().IsRegular() && strings.HasSuffix(path, ".go") {
			out = append(out, path)
		}
		return nil
	})
	return out, err
}

// prepareLarge returns the single large file, building it once in cacheDir
// by concatenating GOROOT's .go files, again and again, until it holds at
// least minBytes.
func prepareLarge(cacheDir, goroot string, minBytes int64, progress io.Writer) (Corpus, error) {
	name := fmt.Sprintf("large-%s-%dMiB.txt", goVersion(goroot), minBytes>>20)
	path := filepath.Join(cacheDir, name)
	c := Corpus{Name: "large", Kind: Large, KindName: Large.String(), Path: path, Files: 1}
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() >= minBytes {
		c.Bytes = st.Size()
		return c, nil
	}
	files, err := goFiles(filepath.Join(goroot, "src"), true)
	if err != nil {
		return c, err
	}
	if len(files) == 0 {
		return c, fmt.Errorf("no .go files under %s/src", goroot)
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return c, err
	}
	fmt.Fprintf(progress, "bench: building %s (%d MiB or more from %d .go files)\n", path, minBytes>>20, len(files))
	tmp, err := os.CreateTemp(cacheDir, name+".*.tmp")
	if err != nil {
		return c, err
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	w := bufio.NewWriterSize(tmp, copyBufferBytes)
	buf := make([]byte, copyBufferBytes)
	var written int64
	for pass := 0; written < minBytes; pass++ {
		before := written
		for _, f := range files {
			n, err := appendFile(w, f, buf)
			written += n
			if err != nil {
				tmp.Close()
				return c, err
			}
			if written >= minBytes {
				break
			}
		}
		if written == before {
			tmp.Close()
			return c, fmt.Errorf("the .go files under %s/src are all empty", goroot)
		}
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return c, err
	}
	if err := tmp.Close(); err != nil {
		return c, err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return c, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return c, err
	}
	c.Bytes = written
	return c, nil
}

// appendFile copies the file at path to w, with a newline after it when it
// lacks one, so that files never share a line.
func appendFile(w *bufio.Writer, path string, buf []byte) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		// A file that vanished or is unreadable is skipped.
		return 0, nil
	}
	defer f.Close()
	var last lastByteWriter
	n, err := io.CopyBuffer(io.MultiWriter(w, &last), onlyReader{f}, buf)
	if err != nil {
		return n, err
	}
	if n > 0 && last.b != '\n' {
		if err := w.WriteByte('\n'); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// lastByteWriter remembers the last byte written to it.
type lastByteWriter struct{ b byte }

// Write records p's last byte; it never fails.
func (l *lastByteWriter) Write(p []byte) (int, error) {
	if len(p) > 0 {
		l.b = p[len(p)-1]
	}
	return len(p), nil
}

// prepareTiny returns the startup-cost tree: tinyFiles .go files copied
// from GOROOT/src/io (then src/bufio and src/strings if io has too few),
// built once in cacheDir.
func prepareTiny(cacheDir, goroot string) (Corpus, error) {
	dir := filepath.Join(cacheDir, "tiny-"+goVersion(goroot))
	c := Corpus{Name: "tiny", Kind: Tiny, KindName: Tiny.String(), Path: dir}
	if n, size, err := countFiles(dir); err == nil && n == tinyFiles {
		c.Files, c.Bytes = n, size
		return c, nil
	}
	var picked []string
	for _, pkg := range []string{"io", "bufio", "strings", "bytes"} {
		files, err := goFiles(filepath.Join(goroot, "src", pkg), false)
		if err != nil {
			continue
		}
		sort.Strings(files)
		for _, f := range files {
			if len(picked) < tinyFiles {
				picked = append(picked, f)
			}
		}
	}
	if len(picked) < tinyFiles {
		return c, fmt.Errorf("found only %d .go files for the tiny tree under %s/src", len(picked), goroot)
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return c, err
	}
	tmp, err := os.MkdirTemp(cacheDir, "tiny.*.tmp")
	if err != nil {
		return c, err
	}
	defer os.RemoveAll(tmp) // no-op after the rename
	for _, f := range picked {
		data, err := os.ReadFile(f)
		if err != nil {
			return c, err
		}
		name := filepath.Base(filepath.Dir(f)) + "_" + filepath.Base(f)
		if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
			return c, err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return c, err
	}
	if err := os.RemoveAll(dir); err != nil {
		return c, err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return c, err
	}
	c.Files, c.Bytes, err = countFiles(dir)
	return c, err
}

// langCorpora are the Lang corpora this machine has (langTrees); a
// language whose tree is missing is said and left out.
func langCorpora(stderr io.Writer) []Corpus {
	var out []Corpus
	for _, t := range langTrees {
		dir := ""
		for _, pat := range t.Dirs {
			if m, _ := filepath.Glob(pat); len(m) > 0 {
				sort.Strings(m)
				dir = m[len(m)-1]
				break
			}
		}
		if dir == "" {
			fmt.Fprintf(stderr, "bench: no %s tree (%s): its structural job is left out\n", t.Lang, strings.Join(t.Dirs, ", "))
			continue
		}
		c, err := treeCorpus(t.Name, dir)
		if err != nil {
			fmt.Fprintf(stderr, "bench: %s tree %s: %v\n", t.Lang, dir, err)
			continue
		}
		c.Kind, c.KindName, c.Lang = Lang, Lang.String(), t.Lang
		out = append(out, c)
	}
	return out
}
