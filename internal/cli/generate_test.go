package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerate checks every --generate kind: each names every flag of the
// table, the bash script passes `bash -n`, and the man page renders with
// `man -l` without warnings (each checked where the tool is installed).
func TestGenerate(t *testing.T) {
	dir := t.TempDir()
	for _, kind := range GenerateKinds {
		var b bytes.Buffer
		if err := WriteGenerated(&b, kind, "rg", "0.0.0"); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		out := b.String()
		for _, f := range flagTable {
			if !strings.Contains(out, f.long) && !strings.Contains(out, strings.ReplaceAll(f.long, "-", `\-`)) {
				t.Errorf("%s: no --%s", kind, f.long)
			}
		}
		path := filepath.Join(dir, kind)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		var check *exec.Cmd
		switch kind {
		case "complete-bash":
			check = exec.Command("bash", "-n", path)
		case "man":
			check = exec.Command("man", "--warnings", "-l", path)
			check.Env = append(os.Environ(), "MANPAGER=cat", "MANWIDTH=80")
		default:
			continue
		}
		if _, err := exec.LookPath(check.Path); err != nil {
			t.Logf("%s: %s not installed, not checked", kind, check.Path)
			continue
		}
		var stderr bytes.Buffer
		check.Stderr = &stderr
		stdout, err := check.Output()
		if err != nil || stderr.Len() > 0 {
			t.Errorf("%s: %v: %s", check.Args, err, stderr.String())
		}
		if kind == "man" && !strings.Contains(string(stdout), "--hyperlink-format") {
			t.Errorf("man page renders without --hyperlink-format:\n%.500s", stdout)
		}
	}
	if err := WriteGenerated(&bytes.Buffer{}, "nope", "rg", "0"); err == nil {
		t.Error("--generate nope accepted")
	}
}
