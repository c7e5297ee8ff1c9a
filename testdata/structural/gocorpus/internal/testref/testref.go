// Package testref gives the differential tests their reference: the
// ripgrep binary named by EVGREP_REFERENCE_RG (default: rg on PATH), run
// live, or its answers recorded in golden files under testdata/golden when
// it is absent.
//
// A test opens its golden file with Open and asks for each case with
// Golden.Run. What Run does depends on the machine:
//
//   - EVGREP_UPDATE_GOLDEN=1: the reference must be present; each case is
//     run and its answer recorded; the file is rewritten when the test ends
//     (`make golden` does this for every package, from an empty folder).
//   - the reference is present (named explicitly, or on PATH with the same
//     version line as the goldens): each case is run live, and the answer is
//     also checked against the recorded one when the versions agree, so a
//     stale golden file fails the test.
//   - otherwise: the recorded answer is returned; a case with no recorded
//     answer fails the test (its inputs changed since `make golden`).
//
// A case is identified by everything that goes into the reference (its
// arguments, working directory, standard input, extra environment and a
// fingerprint of the trees it reads, see Tree), with temporary paths
// replaced by named placeholders (Case.Vars), so a golden answer cannot be
// served for inputs other than those it was recorded from.
package testref

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// Environment variables read by this package.
const (
	// EnvReference names the reference binary (a path, or a name looked up
	// on PATH). Unset or empty means "rg" on PATH; a path that does not
	// exist means no reference.
	EnvReference = "EVGREP_REFERENCE_RG"
	// EnvUpdate, set to 1, records the reference's answers as the goldens.
	EnvUpdate = "EVGREP_UPDATE_GOLDEN"
)

// Reference is the reference binary found for this run.
type Reference struct {
	Path     string // absolute path of the binary
	Version  string // first line of its --version output, e.g. "ripgrep 13.0.0"
	Explicit bool   // named by EVGREP_REFERENCE_RG rather than found on PATH
}

var (
	findOnce sync.Once
	found    Reference
	foundOK  bool
	// pkgDir is the directory the test binary started in: its package's.
	pkgDir, _ = os.Getwd()
)

// Find returns the reference binary, or false when there is none.
func Find() (Reference, bool) {
	findOnce.Do(func() {
		name := os.Getenv(EnvReference)
		explicit := name != ""
		if !explicit {
			name = "rg"
		}
		p, err := exec.LookPath(name)
		if err != nil {
			return
		}
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		out, err := exec.Command(p, "--version").Output()
		if err != nil {
			return
		}
		line, _, _ := strings.Cut(string(out), "\n")
		found = Reference{Path: p, Version: strings.TrimSpace(line), Explicit: explicit}
		foundOK = true
	})
	return found, foundOK
}

// Live returns the reference for a test that can only be run live (its
// input is a large corpus outside the repository), or skips the test.
func Live(t testing.TB) Reference {
	t.Helper()
	ref, ok := Find()
	if !ok {
		t.Skipf("live-only differential test: no reference rg (%s=%q)", EnvReference, os.Getenv(EnvReference))
	}
	return ref
}

// Updating reports whether this run records the goldens.
func Updating() bool { return os.Getenv(EnvUpdate) == "1" }

// Case is one run of the reference.
type Case struct {
	Name  string   // shown in messages and in the golden file; need not be unique
	Args  []string // arguments after the program name
	Dir   string   // working directory ("" = the package's directory)
	Stdin []byte
	Env   []string // added to the test's environment
	// Prefix runs the reference through another program (e.g. setpriv
	// dropping root); it is not part of the case's identity.
	Prefix []string
	// Vars maps placeholder names (upper case) to temporary paths; they
	// are written as ${NAME} in the golden file and put back when read.
	Vars map[string]string
	// Input is a fingerprint of what else the reference reads (Tree).
	Input string
	// Canon, if set, puts an answer in the form it is recorded in (drops
	// timings, sorts lines the reference prints in an order that depends
	// on the machine). Live answers are recorded and compared with the
	// record in this form, but returned as the reference printed them; a
	// recorded answer is returned in this form.
	Canon func(Output) Output
}

// Output is the reference's answer.
type Output struct {
	Code   int
	Stdout []byte
	Stderr []byte
	// Recorded is true when the answer comes from the golden file.
	Recorded bool
}

// entry is one recorded answer as stored.
type entry struct {
	Case      string   `json:"case,omitempty"`
	Key       string   `json:"key"`
	Args      []string `json:"args"`
	Dir       string   `json:"dir,omitempty"`
	Code      int      `json:"code"`
	Stdout    string   `json:"stdout,omitempty"`
	StdoutB64 string   `json:"stdout_b64,omitempty"`
	Stderr    string   `json:"stderr,omitempty"`
	StderrB64 string   `json:"stderr_b64,omitempty"`
}

type file struct {
	Reference string  `json:"reference"`
	Cases     []entry `json:"cases"`
}

type mode int

const (
	modeGolden   mode = iota // answers from the file
	modeLive                 // reference run, answers checked against the file
	modeLiveOnly             // reference run, file of another version: not checked
	modeUpdate               // reference run, answers recorded
)

// Golden is the golden file of one test.
type Golden struct {
	path string
	mode mode
	ref  Reference

	mu       sync.Mutex
	recorded map[string]entry // by key, as read from the file
	version  string           // the file's reference line
	written  []entry          // update mode: in order of first use
	seen     map[string]int   // update mode: key → index in written
	pinned   bool             // OpenPinned: the file keeps its own version
}

// moduleRoot is the nearest folder above the package holding go.mod.
func moduleRoot() string {
	for d := pkgDir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return pkgDir
		}
		d = up
	}
}

// dirOverride, when set (by this package's tests), replaces Dir.
var dirOverride string

// Dir is the folder holding the golden files (testdata/golden at the
// module root).
func Dir() string {
	if dirOverride != "" {
		return dirOverride
	}
	return filepath.Join(moduleRoot(), "testdata", "golden")
}

// versionFile records which reference produced the goldens.
const versionFile = "REFERENCE"

var (
	openMu sync.Mutex
	opened = map[string]*Golden{} // by file
)

// Open returns the golden file of the top-level test that t is or runs
// under, at testdata/golden/<package directory>/<test>.json. Subtests of
// one test share its file.
func Open(t *testing.T) *Golden {
	t.Helper()
	rel, err := filepath.Rel(moduleRoot(), pkgDir)
	if err != nil {
		t.Fatal(err)
	}
	name, _, _ := strings.Cut(t.Name(), "/")
	path := filepath.Join(Dir(), rel, name+".json")
	openMu.Lock()
	defer openMu.Unlock()
	if g, ok := opened[path]; ok {
		if g.mode == modeUpdate {
			t.Cleanup(func() { g.write(t) })
		}
		return g
	}
	g := &Golden{path: path, recorded: map[string]entry{}, seen: map[string]int{}}
	opened[path] = g
	ref, haveRef := Find()
	g.ref = ref
	if data, err := os.ReadFile(g.path); err == nil {
		var f file
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatalf("golden file %s: %v (regenerate it with `make golden`)", g.path, err)
		}
		g.version = f.Reference
		for _, e := range f.Cases {
			g.recorded[e.Key] = e
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	} else if v, err := os.ReadFile(filepath.Join(Dir(), versionFile)); err == nil {
		// No file for this test: its cases are unrecorded goldens of the
		// version recorded for the others.
		g.version = strings.TrimSpace(string(v))
	}
	switch {
	case Updating():
		if !haveRef {
			t.Fatalf("%s=1 needs the reference rg (%s=%q not found)", EnvUpdate, EnvReference, os.Getenv(EnvReference))
		}
		g.mode = modeUpdate
		t.Cleanup(func() { g.write(t) })
	case haveRef && ref.Version == g.version:
		g.mode = modeLive
		t.Logf("reference %s (%s), checked against %s", ref.Path, ref.Version, g.path)
	case haveRef && (ref.Explicit || g.version == ""):
		g.mode = modeLiveOnly
		if g.version != "" {
			t.Logf("reference is %q, goldens are from %q: compared live only", ref.Version, g.version)
		}
	default:
		g.mode = modeGolden
		if haveRef {
			t.Logf("rg on PATH is %q, goldens are from %q: comparing with the goldens (set %s to compare live)",
				ref.Version, g.version, EnvReference)
		}
	}
	return g
}

// OpenPinned is Open for a test whose answers are those of one reference
// version, other than the one testdata/golden/REFERENCE names (a newer rg
// followed before the other goldens are re-recorded). Its golden file
// records its own version and leaves REFERENCE alone; when the reference
// run live is another version, the test is skipped.
func OpenPinned(t *testing.T, version string) *Golden {
	t.Helper()
	g := Open(t)
	if g.Live() && g.ref.Version != version {
		t.Skipf("answers of %q; the reference is %q (set %s to it)", version, g.ref.Version, EnvReference)
	}
	g.mu.Lock()
	g.pinned = true
	g.mu.Unlock()
	return g
}

// Live reports whether answers come from running the reference.
func (g *Golden) Live() bool { return g != nil && g.mode != modeGolden }

// Has reports whether the case can be answered: live, or recorded.
func (g *Golden) Has(c Case) bool {
	if g == nil {
		_, ok := Find()
		return ok
	}
	if g.Live() {
		return true
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	_, ok := g.recorded[key(c)]
	return ok
}

// Run answers the case: from the reference, or from the golden file. A
// nil Golden runs the reference and skips the test when it is absent (for
// cases beyond those recorded, such as extra random seeds).
func (g *Golden) Run(t testing.TB, c Case) Output {
	t.Helper()
	canon := func(o Output) Output {
		if c.Canon != nil {
			rec := o.Recorded
			o = c.Canon(o)
			o.Recorded = rec
		}
		return o
	}
	if g == nil {
		return run(t, Live(t), c)
	}
	k := key(c)
	if g.mode == modeGolden {
		g.mu.Lock()
		e, ok := g.recorded[k]
		g.mu.Unlock()
		if !ok {
			t.Fatalf("%s: no recorded answer in %s for %s (run `make golden` with the reference rg)", g.path, c.Name, describe(c))
		}
		return canon(decode(e, c.Vars))
	}
	live := run(t, g.ref, c)
	out := canon(live)
	e := encode(out, c)
	e.Key = k
	switch g.mode {
	case modeUpdate:
		g.mu.Lock()
		if i, ok := g.seen[k]; ok {
			if prev := g.written[i]; prev.Code != e.Code || prev.Stdout != e.Stdout || prev.StdoutB64 != e.StdoutB64 ||
				prev.Stderr != e.Stderr || prev.StderrB64 != e.StderrB64 {
				t.Errorf("%s: the reference answered %s differently on two runs; make the case deterministic (Canon)", c.Name, describe(c))
			}
		} else {
			g.seen[k] = len(g.written)
			g.written = append(g.written, e)
		}
		g.mu.Unlock()
	case modeLive:
		g.mu.Lock()
		rec, ok := g.recorded[k]
		g.mu.Unlock()
		if !ok {
			t.Errorf("%s: %s has no recorded answer in %s: run `make golden`", c.Name, describe(c), g.path)
		} else if want := canon(decode(rec, c.Vars)); want.Code != out.Code || !bytes.Equal(want.Stdout, out.Stdout) || !bytes.Equal(want.Stderr, out.Stderr) {
			t.Errorf("%s: the recorded answer for %s is out of date (run `make golden`):\nrecorded code=%d stdout=%.300q stderr=%.200q\n    live code=%d stdout=%.300q stderr=%.200q",
				c.Name, describe(c), want.Code, want.Stdout, want.Stderr, out.Code, out.Stdout, out.Stderr)
		}
	}
	return live
}

// run executes the reference for c.
func run(t testing.TB, ref Reference, c Case) Output {
	t.Helper()
	argv := append(slices.Clone(c.Prefix), ref.Path)
	argv = append(argv, c.Args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = c.Dir
	cmd.Env = append(os.Environ(), c.Env...)
	cmd.Stdin = bytes.NewReader(c.Stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running the reference %s: %v", ref.Path, err)
	}
	return Output{Code: code, Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}
}

// vars returns c's placeholders, longest path first.
func vars(c Case) [][2]string { return placeholders(c.Vars) }

func placeholders(m map[string]string) [][2]string {
	var v [][2]string
	for name, path := range m {
		if path != "" {
			v = append(v, [2]string{"${" + name + "}", path})
		}
	}
	sort.Slice(v, func(i, j int) bool {
		if len(v[i][1]) != len(v[j][1]) {
			return len(v[i][1]) > len(v[j][1])
		}
		return v[i][0] < v[j][0]
	})
	return v
}

// hide replaces the paths of c's placeholders in s by their names.
func hide(s string, v [][2]string) string {
	for _, p := range v {
		s = strings.ReplaceAll(s, p[1], p[0])
	}
	return s
}

// show puts the paths back.
func show(s string, v [][2]string) string {
	for _, p := range v {
		s = strings.ReplaceAll(s, p[0], p[1])
	}
	return s
}

// key identifies a case by what goes into the reference.
func key(c Case) string {
	v := vars(c)
	h := sha256.New()
	field := func(s string) { fmt.Fprintf(h, "%d:%s;", len(s), s) }
	field("args")
	for _, a := range c.Args {
		field(hide(a, v))
	}
	field("dir")
	field(hide(c.Dir, v))
	field("env")
	for _, e := range c.Env {
		field(hide(e, v))
	}
	field("stdin")
	field(string(c.Stdin))
	field("input")
	field(c.Input)
	return hex.EncodeToString(h.Sum(nil))[:20]
}

func describe(c Case) string {
	v := vars(c)
	var b strings.Builder
	b.WriteString("rg")
	for _, a := range c.Args {
		fmt.Fprintf(&b, " %q", hide(a, v))
	}
	if c.Dir != "" {
		fmt.Fprintf(&b, " (in %s)", hide(c.Dir, v))
	}
	return b.String()
}

// encode turns an answer into its stored form.
func encode(o Output, c Case) entry {
	v := vars(c)
	e := entry{Case: c.Name, Dir: hide(c.Dir, v), Code: o.Code, Args: []string{}}
	for _, a := range c.Args {
		e.Args = append(e.Args, hide(a, v))
	}
	if s := hide(string(o.Stdout), v); utf8.ValidString(s) {
		e.Stdout = s
	} else {
		e.StdoutB64 = base64.StdEncoding.EncodeToString([]byte(s))
	}
	if s := hide(string(o.Stderr), v); utf8.ValidString(s) {
		e.Stderr = s
	} else {
		e.StderrB64 = base64.StdEncoding.EncodeToString([]byte(s))
	}
	return e
}

// decode turns a stored answer back into an Output for case c.
func decode(e entry, cv map[string]string) Output {
	v := vars(Case{Vars: cv})
	text := func(s, b64 string) []byte {
		if b64 != "" {
			b, _ := base64.StdEncoding.DecodeString(b64)
			s = string(b)
		}
		if s == "" {
			return nil
		}
		return []byte(show(s, v))
	}
	return Output{Code: e.Code, Stdout: text(e.Stdout, e.StdoutB64), Stderr: text(e.Stderr, e.StderrB64), Recorded: true}
}

// write stores the answers recorded in update mode: one case per line,
// in the order of their names and keys (so that recording twice gives the
// same file, whatever order the test ran its cases in).
func (g *Golden) write(t *testing.T) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.written) == 0 {
		return
	}
	entries := slices.Clone(g.written)
	slices.SortFunc(entries, func(a, b entry) int {
		if c := strings.Compare(a.Case, b.Case); c != 0 {
			return c
		}
		return strings.Compare(a.Key, b.Key)
	})
	if err := os.MkdirAll(filepath.Dir(g.path), 0o755); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	head, _ := json.Marshal(g.ref.Version)
	fmt.Fprintf(&b, "{\"reference\": %s,\n\"cases\": [\n", head)
	for i, e := range entries {
		var line bytes.Buffer
		enc := json.NewEncoder(&line)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(e); err != nil {
			t.Fatal(err)
		}
		b.Write(bytes.TrimSuffix(line.Bytes(), []byte("\n")))
		if i < len(entries)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]}\n")
	if err := os.WriteFile(g.path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if g.pinned {
		return
	}
	if err := writeVersion(filepath.Join(Dir(), versionFile), g.ref); err != nil {
		t.Fatal(err)
	}
}

var versionMu sync.Mutex

// writeVersion records the reference's version beside the goldens, and
// refuses to mix versions in one folder.
func writeVersion(path string, ref Reference) error {
	versionMu.Lock()
	defer versionMu.Unlock()
	want := ref.Version + "\n"
	if old, err := os.ReadFile(path); err == nil {
		if string(old) == want {
			return nil
		}
		return fmt.Errorf("%s says the goldens are from %q, this run records %q: run `make golden` (it starts from an empty folder)",
			path, strings.TrimSpace(string(old)), ref.Version)
	}
	return os.WriteFile(path, []byte(want), 0o644)
}

// Tree returns a fingerprint of the files below each path (a file or a
// folder): names, kinds, the owner's permission bits, contents and link
// targets, with the paths of vars (as in Case.Vars) replaced by their
// names in contents and targets. Folders that cannot be read are marked
// as such. Times are not part of it.
func Tree(vars map[string]string, paths ...string) string {
	v := placeholders(vars)
	h := sha256.New()
	for _, root := range paths {
		fmt.Fprintf(h, "root %q;", hide(root, v))
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			rel, _ := filepath.Rel(root, p)
			if err != nil {
				fmt.Fprintf(h, "%q:unreadable;", rel)
				return nil
			}
			info, ierr := d.Info()
			if ierr != nil {
				fmt.Fprintf(h, "%q:gone;", rel)
				return nil
			}
			mode := info.Mode()
			fmt.Fprintf(h, "%q:%s:%o;", rel, mode.Type(), mode.Perm()&0o700)
			switch {
			case mode.Type()&fs.ModeSymlink != 0:
				target, _ := os.Readlink(p)
				fmt.Fprintf(h, "->%q;", hide(target, v))
			case mode.IsRegular():
				data, err := readNoATime(p)
				if err != nil {
					fmt.Fprintf(h, "unreadable;")
				}
				if len(v) > 0 {
					data = []byte(hide(string(data), v))
				}
				sum := sha256.Sum256(data)
				h.Write(sum[:])
			}
			return nil
		})
	}
	return hex.EncodeToString(h.Sum(nil))[:20]
}

// readNoATime reads a file without updating its access time where the
// system allows it (the owner's files on Linux).
func readNoATime(p string) ([]byte, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|noATime, 0)
	if err != nil && noATime != 0 {
		f, err = os.Open(p)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// SortLines is a Canon step: stdout and stderr with their lines sorted.
func SortLines(o Output) Output {
	sortText := func(b []byte) []byte {
		if len(b) == 0 {
			return b
		}
		trail := b[len(b)-1] == '\n'
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		slices.Sort(lines)
		s := strings.Join(lines, "\n")
		if trail {
			s += "\n"
		}
		return []byte(s)
	}
	o.Stdout, o.Stderr = sortText(o.Stdout), sortText(o.Stderr)
	return o
}

// LongLine is the length from which LongLines replaces a line by its digest.
const LongLine = 64 << 10

// LongLines returns b with each line of LongLine bytes or more replaced by
// a digest line ("<N bytes, sha256 …>"), so that answers printing a huge
// line stay small in the golden files. Tests apply it to both sides.
func LongLines(b []byte) []byte {
	if len(b) < LongLine {
		return b
	}
	var out []byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		line := b
		if i >= 0 {
			line = b[:i+1]
		}
		b = b[len(line):]
		body := bytes.TrimSuffix(line, []byte("\n"))
		if len(body) >= LongLine {
			sum := sha256.Sum256(body)
			out = fmt.Appendf(out, "<%d bytes, sha256 %x>", len(body), sum)
			out = append(out, line[len(body):]...)
			continue
		}
		out = append(out, line...)
	}
	return out
}
