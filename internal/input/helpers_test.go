package input

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
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

// rgPath returns the reference rg, or skips the test.
func rgPath(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("rg not installed")
	}
	return p
}

// runRG runs rg with args in dir and returns stdout, stderr and the exit code.
func runRG(t testing.TB, dir string, args ...string) ([]byte, string, int) {
	t.Helper()
	cmd := exec.Command(rgPath(t), append([]string{"--no-config"}, args...)...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("rg: %v", err)
	}
	return out.Bytes(), errb.String(), code
}

// asRGLines is what rg -a -N with an empty pattern prints for content: every line, the last
// one given a newline.
func asRGLines(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] != '\n' {
		return append(append([]byte(nil), b...), '\n')
	}
	return b
}
