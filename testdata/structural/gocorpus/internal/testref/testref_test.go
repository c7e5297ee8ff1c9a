package testref

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// reset forgets the reference found and the golden files opened, so that
// a test can change the environment between phases.
func reset(t *testing.T, ref string, update bool) {
	t.Helper()
	t.Setenv(EnvReference, ref)
	u := ""
	if update {
		u = "1"
	}
	t.Setenv(EnvUpdate, u)
	findOnce = sync.Once{}
	found, foundOK = Reference{}, false
	openMu.Lock()
	opened = map[string]*Golden{}
	openMu.Unlock()
}

// fakeRef writes a reference that prints its version, or its arguments,
// its working directory and its stdin (a warning on stderr; exit 3 when
// the first argument is "fail").
func fakeRef(t *testing.T, dir, name, version string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	script := "#!/bin/sh\nif [ \"$1\" = --version ]; then echo '" + version + "'; echo '(features)'; exit 0; fi\n" +
		"echo \"args:$*\"; echo \"cwd:$PWD\"; cat; echo \"warn $PWD\" >&2\n[ \"$1\" = fail ] && exit 3\nexit 0\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// recorder collects failures instead of failing the test.
type recorder struct {
	*testing.T
	errs, fatals []string
}

type stop struct{}

func (r *recorder) Helper()                   {}
func (r *recorder) Errorf(f string, a ...any) { r.errs = append(r.errs, f) }
func (r *recorder) Fatalf(f string, a ...any) { r.fatals = append(r.fatals, f); panic(stop{}) }
func (r *recorder) Logf(string, ...any)       {}
func (r *recorder) run(g *Golden, c Case) (o Output) {
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(stop); !ok {
				panic(v)
			}
		}
	}()
	return g.Run(r, c)
}

// TestModes records a case from a fake reference, reads it back without
// a reference (in another temporary folder), detects a stale record when
// the reference is back, and refuses a case that was never recorded.
func TestModes(t *testing.T) {
	bin := t.TempDir()
	ref1 := fakeRef(t, bin, "ref1", "fakegrep 1.0")
	ref2 := fakeRef(t, bin, "ref2", "fakegrep 2.0")
	dirOverride = t.TempDir()
	t.Cleanup(func() { dirOverride = "" })
	mkCase := func(dir, first string) Case {
		vars := map[string]string{"DIR": dir}
		return Case{Name: "one", Args: []string{first, "x y"}, Dir: dir, Stdin: []byte("in\xff\n"),
			Vars: vars, Input: Tree(vars, dir)}
	}
	dirA, dirB := t.TempDir(), t.TempDir()
	want := func(dir string) Output {
		return Output{Code: 3, Stdout: []byte("args:fail x y\ncwd:" + dir + "\nin\xff\n"), Stderr: []byte("warn " + dir + "\n")}
	}
	same := func(got, w Output) bool {
		return got.Code == w.Code && string(got.Stdout) == string(w.Stdout) && string(got.Stderr) == string(w.Stderr)
	}

	reset(t, ref1, true)
	t.Run("update", func(t *testing.T) {
		if out := Open(t).Run(t, mkCase(dirA, "fail")); !same(out, want(dirA)) || out.Recorded {
			t.Fatalf("live answer %+v", out)
		}
	})
	file := filepath.Join(dirOverride, "internal", "testref", "TestModes.json")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), dirA) || !strings.Contains(string(data), `"dir":"${DIR}"`) || !strings.Contains(string(data), "stdout_b64") {
		t.Errorf("golden file does not hide the folder or keep the bytes:\n%s", data)
	}
	if v, _ := os.ReadFile(filepath.Join(dirOverride, versionFile)); string(v) != "fakegrep 1.0\n" {
		t.Errorf("REFERENCE is %q", v)
	}

	reset(t, "/nonexistent/rg", false)
	r := &recorder{T: t}
	g := Open(t)
	if g.Live() {
		t.Fatal("live without a reference")
	}
	if out := r.run(g, mkCase(dirB, "fail")); !same(out, want(dirB)) || !out.Recorded {
		t.Errorf("recorded answer in another folder: %+v, want %+v", out, want(dirB))
	}
	if r.run(g, mkCase(dirB, "other")); len(r.fatals) != 1 {
		t.Errorf("unrecorded case: fatals %q", r.fatals)
	}
	os.WriteFile(filepath.Join(dirB, "new"), nil, 0o644)
	if r.run(g, mkCase(dirB, "fail")); len(r.fatals) != 2 {
		t.Errorf("changed input tree: fatals %q", r.fatals)
	}
	os.Remove(filepath.Join(dirB, "new"))

	// A stale record: the reference now answers otherwise.
	os.WriteFile(file, []byte(strings.Replace(string(data), `"code":3`, `"code":4`, 1)), 0o644)
	for _, tc := range []struct {
		name string
		ref  string
		path string // PATH, for a reference found there
		errs int
		live bool
	}{
		{name: "same version checks the record", ref: ref1, errs: 1, live: true},
		{name: "named reference of another version: live only", ref: ref2, errs: 0, live: true},
		{name: "rg on PATH of another version: the record", path: bin, errs: 0, live: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.path != "" {
				if err := os.Symlink(ref2, filepath.Join(tc.path, "rg")); err != nil {
					t.Fatal(err)
				}
				t.Setenv("PATH", tc.path)
			}
			reset(t, tc.ref, false)
			r := &recorder{T: t}
			g := Open(t)
			out := r.run(g, mkCase(dirB, "fail"))
			if len(r.errs) != tc.errs || len(r.fatals) != 0 || g.Live() != tc.live || out.Recorded == tc.live {
				t.Errorf("errors %q fatals %q live %v recorded %v", r.errs, r.fatals, g.Live(), out.Recorded)
			}
		})
	}

	// A test with no golden file at all, beside goldens of the same
	// version: its cases are missing records.
	os.Remove(file)
	reset(t, ref1, false)
	r = &recorder{T: t}
	if r.run(Open(t), mkCase(dirB, "fail")); len(r.errs) != 1 {
		t.Errorf("case of a test without golden file: errors %q", r.errs)
	}
}

func TestKeyHidesVars(t *testing.T) {
	a := Case{Args: []string{"-e", "x", "/tmp/one/f"}, Dir: "/tmp/one", Vars: map[string]string{"ROOT": "/tmp/one"}}
	b := Case{Args: []string{"-e", "x", "/tmp/two/f"}, Dir: "/tmp/two", Vars: map[string]string{"ROOT": "/tmp/two"}}
	if key(a) != key(b) {
		t.Errorf("the same case in two folders has two keys")
	}
	for _, c := range []Case{
		{Args: []string{"-e", "y", "/tmp/two/f"}, Dir: "/tmp/two", Vars: b.Vars},
		{Args: b.Args, Dir: "/tmp/two", Vars: b.Vars, Stdin: []byte("x")},
		{Args: b.Args, Dir: "/tmp/two", Vars: b.Vars, Input: "t"},
		{Args: b.Args, Dir: "/tmp/two", Vars: b.Vars, Env: []string{"A=1"}},
		{Args: []string{"-e", "x /tmp/two/f"}, Dir: "/tmp/two", Vars: b.Vars},
	} {
		if key(c) == key(b) {
			t.Errorf("%+v has the key of %+v", c, b)
		}
	}
}

func TestTree(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a", "x")
	vars := map[string]string{"D": dir}
	base := Tree(vars, dir)
	changes := []struct {
		name string
		do   func()
		undo func()
	}{
		{"content", func() { write("a", "y") }, func() { write("a", "x") }},
		{"new file", func() { write("b", "") }, func() { os.Remove(filepath.Join(dir, "b")) }},
		{"mode", func() { os.Chmod(filepath.Join(dir, "a"), 0o755) }, func() { os.Chmod(filepath.Join(dir, "a"), 0o644) }},
		{"link", func() { os.Symlink("a", filepath.Join(dir, "l")) }, func() { os.Remove(filepath.Join(dir, "l")) }},
		{"empty folder", func() { os.Mkdir(filepath.Join(dir, "d"), 0o755) }, func() { os.Remove(filepath.Join(dir, "d")) }},
	}
	for _, c := range changes {
		c.do()
		if Tree(vars, dir) == base {
			t.Errorf("%s: same fingerprint", c.name)
		}
		c.undo()
		if Tree(vars, dir) != base {
			t.Errorf("%s undone: fingerprint differs", c.name)
		}
	}
	// A file naming its own folder has the same fingerprint in any folder.
	other := t.TempDir()
	os.WriteFile(filepath.Join(dir, "p"), []byte("at "+dir), 0o644)
	os.WriteFile(filepath.Join(other, "a"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(other, "p"), []byte("at "+other), 0o644)
	if Tree(vars, dir) != Tree(map[string]string{"D": other}, other) {
		t.Errorf("the folder's own path changes the fingerprint")
	}
}

func TestLongLines(t *testing.T) {
	long := strings.Repeat("a", LongLine)
	cases := []struct{ in, want string }{
		{"short\n", "short\n"},
		{"x:" + long[2:] + "\nok\n", "<65536 bytes, sha256 "},
		{long, "<65536 bytes, sha256 "},
		{strings.Repeat("b\n", LongLine), strings.Repeat("b\n", LongLine)},
	}
	for _, c := range cases {
		got := string(LongLines([]byte(c.in)))
		if !strings.HasPrefix(got, c.want) || len(got) > max(len(c.in), 200) {
			t.Errorf("LongLines(%.20q…) = %.80q", c.in, got)
		}
		if again := string(LongLines([]byte(got))); again != got {
			t.Errorf("not idempotent: %.80q", again)
		}
	}
	if got := string(LongLines([]byte("x:" + long[2:] + "\nok\n"))); !strings.HasSuffix(got, ">\nok\n") {
		t.Errorf("lines after the digest: %.200q", got)
	}
	if string(LongLines([]byte(long))) == string(LongLines([]byte(long[1:]+"b"))) {
		t.Errorf("two long lines share a digest")
	}
}

func TestSortLines(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", ""},
		{"b\na\n", "a\nb\n"},
		{"b\na", "a\nb"},
		{"c\nb\na\n", "a\nb\nc\n"},
	}
	for _, c := range cases {
		o := SortLines(Output{Stdout: []byte(c.in), Stderr: []byte(c.in)})
		if string(o.Stdout) != c.want || string(o.Stderr) != c.want {
			t.Errorf("SortLines(%q) = %q, %q", c.in, o.Stdout, o.Stderr)
		}
	}
}
