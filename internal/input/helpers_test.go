package input

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/evgrep/evgrep/internal/testref"
)

// fixtureDir holds the committed fixtures (see make-fixtures.sh there).
const fixtureDir = "../../testdata/input"

// fixture returns the path of a fixture file.
func fixture(name string) string { return filepath.Join(fixtureDir, name) }

// readFixture returns a fixture's bytes.
func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(fixture(name))
	if err != nil {
		t.Fatalf("fixture %s: %v", name, err)
	}
	return b
}

// openAll opens path with opts and reads everything.
func openAll(path string, opts Options) ([]byte, error) {
	rc, err := Open(path, opts)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// decodeAll runs data through NewReader under the given name.
func decodeAll(name string, data []byte, opts Options) ([]byte, error) {
	rc, err := NewReader(bytes.NewReader(data), name, opts)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// writeTemp writes data to a file named name in a fresh directory.
func writeTemp(t testing.TB, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// rgCase is `rg --no-config args...` run in dir, identified by the files
// below input (dir itself if input is "").
func rgCase(dir, input string, args ...string) testref.Case {
	if input == "" {
		input = dir
	}
	vars := map[string]string{"DIR": dir}
	return testref.Case{Args: append([]string{"--no-config"}, args...), Dir: dir, Vars: vars,
		Input: testref.Tree(vars, input)}
}

// runCase answers c with the reference (live, or recorded: internal/testref)
// and returns stdout, stderr and the exit code.
func runCase(t testing.TB, c testref.Case) ([]byte, string, int) {
	t.Helper()
	tt, ok := t.(*testing.T)
	if !ok {
		t.Fatal("runCase needs a *testing.T")
	}
	c.Name = t.Name()
	out := testref.Open(tt).Run(t, c)
	return out.Stdout, string(out.Stderr), out.Code
}

// runRG runs rg with args in dir and returns stdout, stderr and the exit code.
func runRG(t testing.TB, dir string, args ...string) ([]byte, string, int) {
	t.Helper()
	return runCase(t, rgCase(dir, "", args...))
}

// asRGLines is what rg -a -N with an empty pattern prints for content: every line, the last
// one given a newline.
func asRGLines(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] != '\n' {
		return append(append([]byte(nil), b...), '\n')
	}
	return b
}
