package pipeline

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/evgrep/evgrep/internal/input"
	"github.com/evgrep/evgrep/internal/search"
	"github.com/evgrep/evgrep/matcher"
	"github.com/evgrep/evgrep/walker"
	"github.com/evgrep/evgrep/walker/ignore"
)

// recorder is a test Sink: the match lines and the end error of every file.
type recorder struct {
	mu      *sync.Mutex
	lines   map[string][]string
	errs    map[string]error
	path    string
	begin   func(e walker.Entry)
	tapped  map[string][]byte
	current *bytes.Buffer
}

func (r *recorder) Begin(e walker.Entry) (bool, bool) {
	if r.begin != nil {
		r.begin(e)
	}
	r.path = filepath.Base(e.Path)
	return true, true
}

func (r *recorder) End(e walker.Entry, err error) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.errs[r.path] = err
	}
	if r.current != nil {
		r.tapped[r.path] = r.current.Bytes()
		r.current = nil
	}
	return true
}

func (r *recorder) Matched(s *search.Searcher, m *search.Match) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines[r.path] = append(r.lines[r.path], string(bytes.TrimRight(m.Bytes, "\r\n")))
	return true, nil
}
func (r *recorder) Context(*search.Searcher, *search.Context) (bool, error) { return true, nil }
func (r *recorder) ContextBreak(*search.Searcher) (bool, error)             { return true, nil }
func (r *recorder) BinaryData(*search.Searcher, int64) (bool, error)        { return true, nil }
func (r *recorder) Finish(*search.Searcher, *search.Finish) error           { return nil }

// openingRecorder is a recorder that opens its files itself, with a tap
// that keeps the raw bytes.
type openingRecorder struct{ *recorder }

func (o openingRecorder) Open(e walker.Entry) (File, Tap, error) {
	f, err := os.Open(e.Path)
	if err != nil {
		return nil, nil, err
	}
	o.current = &bytes.Buffer{}
	return f, bufTap{o.current}, nil
}

// bufTap keeps every byte it sees.
type bufTap struct{ b *bytes.Buffer }

func (t bufTap) Reader(r io.Reader) io.Reader { return io.TeeReader(r, t.b) }
func (t bufTap) Write(p []byte) (int, error)  { return t.b.Write(p) }

func run(t *testing.T, roots []string, opts *Options, pattern string, open bool, begin func(walker.Entry)) *recorder {
	t.Helper()
	m, err := matcher.Compile(matcher.Options{Patterns: []string{pattern}, LineTerminator: '\n', CRLF: opts.Search.CRLF})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{mu: &sync.Mutex{}, lines: map[string][]string{}, errs: map[string]error{}, tapped: map[string][]byte{}}
	err = Run(roots, opts, m, func() Sink {
		r := &recorder{mu: rec.mu, lines: rec.lines, errs: rec.errs, tapped: rec.tapped, begin: begin}
		if open {
			return openingRecorder{r}
		}
		return r
	})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

const utf16le = "\xff\xfeh\x00e\x00l\x00l\x00o\x00\r\x00\n\x00b\x00y\x00e\x00\n\x00"

func writeTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string]string{
		"u16.txt":  utf16le,
		"crlf.txt": "hello\r\nbye\r\nhello\r\n",
		"bom8.txt": "\xef\xbb\xbfhello\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func baseOptions() *Options {
	return &Options{
		Walk:   walker.DefaultOptions(),
		Search: search.Config{LineTerm: '\n', CRLF: true, LineNumbers: true, BOMPeek: true},
		Binary: Binary{Implicit: search.BinaryQuit, Explicit: search.BinaryConvert},
	}
}

// TestOpenerReadsLikeThePipeline checks that a file an Opener opens is
// read and decoded as the pipeline's own reads do, on each read path (the
// descriptor, a memory map, the whole file for -U), and that the tap sees
// the file's raw bytes.
func TestOpenerReadsLikeThePipeline(t *testing.T) {
	dir := writeTree(t)
	for _, tc := range []struct {
		name            string
		mmap, multiline bool
	}{{"read", false, false}, {"mmap", true, false}, {"multiline", false, true}} {
		opts := baseOptions()
		opts.Mmap, opts.Search.Multiline = tc.mmap, tc.multiline
		own := run(t, []string{dir}, opts, "hello$", false, nil)
		hooked := run(t, []string{dir}, opts, "hello$", true, nil)
		want := map[string][]string{"u16.txt": {"hello"}, "crlf.txt": {"hello", "hello"}, "bom8.txt": {"hello"}}
		for name, lines := range want {
			if g := own.lines[name]; !equal(g, lines) {
				t.Errorf("%s: pipeline's own read of %s: %q, want %q", tc.name, name, g, lines)
			}
			if g := hooked.lines[name]; !equal(g, lines) {
				t.Errorf("%s: opener's read of %s: %q, want %q", tc.name, name, g, lines)
			}
			raw, _ := os.ReadFile(filepath.Join(dir, name))
			if !bytes.Equal(hooked.tapped[name], raw) {
				t.Errorf("%s: the tap saw %q of %s, want its raw bytes %q", tc.name, hooked.tapped[name], name, raw)
			}
		}
		if len(own.errs)+len(hooked.errs) > 0 {
			t.Errorf("%s: errors %v %v", tc.name, own.errs, hooked.errs)
		}
	}
}

// TestOpenErrorKeepsCause checks that a file that vanishes between the
// walk and its open reports rg's text and keeps the errno as its cause.
func TestOpenErrorKeepsCause(t *testing.T) {
	for _, mmap := range []bool{false, true} {
		dir := writeTree(t)
		opts := baseOptions()
		opts.Mmap = mmap
		rec := run(t, []string{dir}, opts, "hello", false, func(e walker.Entry) {
			if filepath.Base(e.Path) == "crlf.txt" {
				os.Remove(e.Path)
			}
		})
		err := rec.errs["crlf.txt"]
		if err == nil {
			t.Fatalf("mmap=%v: no error for the removed file", mmap)
		}
		if got, want := err.Error(), "No such file or directory (os error 2)"; got != want {
			t.Errorf("mmap=%v: text %q, want %q", mmap, got, want)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("mmap=%v: errors.Is(%v, fs.ErrNotExist) is false", mmap, err)
		}
	}
}

// TestWalkErrorReturned checks that Run and Files return the walk's error
// (a glob that does not compile) instead of searching.
func TestWalkErrorReturned(t *testing.T) {
	opts := baseOptions()
	opts.Walk.Globs = []ignore.OverrideGlob{{Pattern: "["}}
	m, _ := matcher.Compile(matcher.Options{Patterns: []string{"x"}, LineTerminator: '\n'})
	called := false
	err := Run([]string{t.TempDir()}, opts, m, func() Sink { called = true; return &recorder{} })
	if err == nil || called {
		t.Errorf("Run: err %v, sink made %v", err, called)
	}
	if err := Files([]string{t.TempDir()}, opts.Walk, func(walker.Entry) bool { return true }); err == nil {
		t.Errorf("Files: no error for a bad glob")
	}
}

// TestMmapChoice is rg's rule.
func TestMmapChoice(t *testing.T) {
	dir := writeTree(t)
	file := filepath.Join(dir, "u16.txt")
	many := make([]string, 11)
	for i := range many {
		many[i] = file
	}
	for _, tc := range []struct {
		paths        []string
		mmap, noMmap bool
		want         bool
	}{
		{[]string{file}, false, false, true},
		{[]string{file, file}, false, false, true},
		{[]string{dir}, false, false, false},
		{[]string{file, dir}, false, false, false},
		{[]string{"-"}, false, false, false},
		{many, false, false, false},
		{many[:10], false, false, true},
		{[]string{dir}, true, false, true},
		{[]string{file}, true, true, false},
		{[]string{file}, false, true, false},
	} {
		if got := MmapChoice(tc.paths, tc.mmap, tc.noMmap); got != tc.want {
			t.Errorf("MmapChoice(%d paths %v, %v, %v) = %v", len(tc.paths), tc.paths[0] == dir, tc.mmap, tc.noMmap, got)
		}
	}
}

func equal(a, b []string) bool {
	a, b = append([]string(nil), a...), append([]string(nil), b...)
	sort.Strings(a)
	sort.Strings(b)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestDecode checks that Decode gives the text a search reads.
func TestDecode(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{utf16le, "hello\r\nbye\n"},
		{"\xfe\xff\x00h\x00i", "hi"},
		{"\xef\xbb\xbfhello\n", "hello\n"},
		{"caf\xe9\n", "caf\xe9\n"},
		{"", ""},
	} {
		if got := Decode("f.txt", []byte(tc.raw), input.Options{}); string(got) != tc.want {
			t.Errorf("Decode(%q) = %q, want %q", tc.raw, got, tc.want)
		}
	}
}
