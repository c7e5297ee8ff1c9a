//go:build cgo

package agent

import (
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/testref"
	"github.com/evgrep/evgrep/syntax"
)

// TestImportsGoRootAgainstGoList: for 20 packages sampled from `go list
// std`, the union of the workspace imports listed for the package's files
// equals `go list -f {{.Imports}}`'s in-tree ones (those with a folder in
// GOROOT/src, vendored ones included as vendor/...). The package's files are
// the ones go/build's MatchFile keeps for this platform (build tags,
// GOOS/GOARCH file names, cgo: the same rules go list applies); they must
// equal go list's GoFiles and CgoFiles, so files excluded by build
// constraints are left out of both sides alike.
func TestImportsGoRootAgainstGoList(t *testing.T) {
	src := filepath.Join(testref.GoRoot(t), "src")
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	cgo := "0"
	if build.Default.CgoEnabled {
		cgo = "1"
	}
	goList := func(args ...string) string {
		cmd := exec.Command("go", append([]string{"list"}, args...)...)
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "CGO_ENABLED="+cgo, "GOFLAGS=", "GOOS="+build.Default.GOOS, "GOARCH="+build.Default.GOARCH)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list %v: %v", args, err)
		}
		return string(out)
	}
	all := strings.Fields(goList("std"))
	// Two chosen for their vendored (net/http) and cgo (os/user)
	// imports, 18 spread over the list.
	sample := []string{"net/http", "os/user"}
	for i := 0; i < len(all) && len(sample) < 20; i += max(1, len(all)/18) {
		if !contains(sample, all[i]) {
			sample = append(sample, all[i])
		}
	}
	if len(sample) < 20 {
		t.Fatalf("only %d packages sampled", len(sample))
	}
	rs := newResolver(src)
	checked := 0
	for _, pkg := range sample {
		out := strings.Split(strings.TrimSpace(goList("-f", "{{.Dir}}|{{join .GoFiles \" \"}} {{join .CgoFiles \" \"}}|{{join .Imports \" \"}}", pkg)), "|")
		if len(out) != 3 {
			t.Fatalf("%s: go list said %q", pkg, out)
		}
		dir := out[0]
		listFiles := strings.Fields(out[1])
		var wantImports []string
		for _, p := range strings.Fields(out[2]) {
			if isDir(filepath.Join(src, p)) {
				wantImports = append(wantImports, p)
			}
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var files []string
		got := map[string]bool{}
		for _, e := range ents {
			abs := filepath.Join(dir, e.Name())
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") || !goMatchFile(abs) {
				continue
			}
			files = append(files, e.Name())
			data, err := os.ReadFile(abs)
			if err != nil {
				t.Fatal(err)
			}
			imps, res, err := resolveImports(rs, syntax.Go, abs, data)
			if err != nil {
				t.Fatalf("%s: %v", abs, err)
			}
			for i, r := range res {
				if r.status == resWorkspace {
					got[slashRel(src, r.targets[0])] = true
				} else if isDir(filepath.Join(src, imps[i].Spec)) {
					t.Errorf("%s: %q is %s, but GOROOT/src has it", abs, imps[i].Spec, r.status)
				}
			}
		}
		sort.Strings(files)
		sort.Strings(listFiles)
		if !slices.Equal(files, listFiles) {
			t.Errorf("%s: files %v, go list %v", pkg, files, listFiles)
		}
		var gotList []string
		for p := range got {
			gotList = append(gotList, p)
		}
		sort.Strings(gotList)
		sort.Strings(wantImports)
		if !slices.Equal(gotList, wantImports) {
			t.Errorf("%s: imports %v, go list %v", pkg, gotList, wantImports)
		}
		checked += len(wantImports)
	}
	if checked < 40 {
		t.Fatalf("only %d imports checked over 20 packages", checked)
	}
	t.Logf("20 packages %v, %d in-tree imports checked", sample, checked)
}
