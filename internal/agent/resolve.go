package agent

import (
	"bufio"
	"bytes"
	"go/build"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/evgrep/evgrep/syntax"
)

// Import resolution: where in the workspace an import of a file points.
// The rules per language are the common conventions, not a build system:
// Go packages by go.mod's module path (and GOROOT's std layout, vendor
// folders included), Python modules and packages (relative imports from the
// file's folder, absolute ones from the package root, the workspace and its
// src/), JavaScript and TypeScript relative specifiers with their
// extensions and index files, Rust mod declarations and crate::/self::/
// super:: paths, C and C++ quoted includes, Ruby require_relative, Java
// imports under the usual source roots.

// Resolution statuses (the Label of an imports item).
const (
	resWorkspace  = "workspace"
	resStd        = "std"
	resExternal   = "external"
	resUnresolved = "unresolved"
)

// resolved is where one import points.
type resolved struct {
	status string
	// targets are absolute files, or for Go one package folder.
	targets []string
	dir     bool // targets are folders (Go packages)
	note    string
}

// resolver resolves the imports of files under one workspace root.
type resolver struct {
	root string
	mods map[string]goMod // by folder
}

func newResolver(root string) *resolver { return &resolver{root: root, mods: map[string]goMod{}} }

// goMod is the module a folder belongs to.
type goMod struct {
	path, dir string // module path and its folder; "" when none
}

// inRoot reports whether abs lies under the workspace root.
func (rs *resolver) inRoot(abs string) bool {
	rel, err := filepath.Rel(rs.root, abs)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// moduleOf finds the go.mod at or above dir.
func (rs *resolver) moduleOf(dir string) goMod {
	if m, ok := rs.mods[dir]; ok {
		return m
	}
	var m goMod
	if data, err := readNamed(filepath.Join(dir, "go.mod")); err == nil {
		m = goMod{path: modulePath(data), dir: dir}
	} else if up := filepath.Dir(dir); up != dir {
		m = rs.moduleOf(up)
	}
	rs.mods[dir] = m
	return m
}

// modulePath reads the module line of a go.mod.
func modulePath(data []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// stdRoot is GOROOT/src when the module is std or cmd, else "".
func stdRoot(m goMod) string {
	switch m.path {
	case "std":
		return m.dir
	case "cmd":
		return filepath.Dir(m.dir)
	}
	return ""
}

// isStdPath reports whether a Go import path names a standard package (no
// dot in its first element).
func isStdPath(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return !strings.Contains(first, ".")
}

// goImportPath is the import path of the package in dir ("" when unknown).
func (rs *resolver) goImportPath(dir string) string {
	m := rs.moduleOf(dir)
	if m.dir == "" {
		return ""
	}
	rel, err := filepath.Rel(m.dir, dir)
	if err != nil {
		return ""
	}
	rel = filepath.ToSlash(rel)
	if sr := stdRoot(m); sr != "" {
		r, _ := filepath.Rel(sr, dir)
		r = filepath.ToSlash(r)
		// A vendored package is imported by its own path.
		if i := strings.LastIndex("/"+r, "/vendor/"); i >= 0 {
			return r[i+len("/vendor/")-1:]
		}
		return r
	}
	if rel == "." {
		return m.path
	}
	if i := strings.LastIndex("/"+rel, "/vendor/"); i >= 0 {
		return rel[i+len("/vendor/")-1:]
	}
	return m.path + "/" + rel
}

// resolveGo resolves a Go import path from the file in dir.
func (rs *resolver) resolveGo(dir, p string) resolved {
	if p == "C" {
		return resolved{status: resExternal, note: "cgo"}
	}
	m := rs.moduleOf(dir)
	pkg := func(d, status string) resolved {
		if isDir(d) {
			if status == resWorkspace && !rs.inRoot(d) {
				status = resStd
			}
			return resolved{status: status, targets: []string{d}, dir: true}
		}
		return resolved{}
	}
	if sr := stdRoot(m); sr != "" {
		if m.path == "cmd" && (p == "cmd" || strings.HasPrefix(p, "cmd/")) {
			if r := pkg(filepath.Join(sr, p), resWorkspace); r.status != "" {
				return r
			}
		}
		if isStdPath(p) {
			if r := pkg(filepath.Join(sr, p), resWorkspace); r.status != "" {
				return r
			}
		} else if r := pkg(filepath.Join(m.dir, "vendor", p), resWorkspace); r.status != "" {
			return r
		}
		return resolved{status: resUnresolved}
	}
	if m.dir != "" && (p == m.path || strings.HasPrefix(p, m.path+"/")) {
		if r := pkg(filepath.Join(m.dir, strings.TrimPrefix(p, m.path)), resWorkspace); r.status != "" {
			return r
		}
		return resolved{status: resUnresolved, note: "inside the module, but no such folder"}
	}
	if m.dir != "" {
		if r := pkg(filepath.Join(m.dir, "vendor", p), resWorkspace); r.status != "" {
			return r
		}
	}
	if isStdPath(p) {
		if gr := build.Default.GOROOT; gr != "" {
			if r := pkg(filepath.Join(gr, "src", p), resStd); r.status != "" {
				r.status = resStd
				if rs.inRoot(r.targets[0]) {
					r.status = resWorkspace
				}
				return r
			}
		}
		return resolved{status: resStd}
	}
	return resolved{status: resExternal, note: "another module"}
}

// firstFile is the first candidate that is a file.
func firstFile(cands ...string) string {
	for _, c := range cands {
		if isFile(c) {
			return c
		}
	}
	return ""
}

// resolve resolves one import of the file abs.
func (rs *resolver) resolve(lang syntax.Language, abs string, im syntax.Import) resolved {
	dir := filepath.Dir(abs)
	found := func(files ...string) resolved {
		var out []string
		for _, f := range files {
			if f != "" && !contains(out, f) {
				out = append(out, f)
			}
		}
		if len(out) == 0 {
			return resolved{status: resUnresolved}
		}
		st := resWorkspace
		for _, f := range out {
			if !rs.inRoot(f) {
				st = resExternal
			}
		}
		return resolved{status: st, targets: out}
	}
	switch lang {
	case syntax.Go:
		return rs.resolveGo(dir, im.Spec)
	case syntax.Python:
		return rs.resolvePython(abs, im, found)
	case syntax.JavaScript, syntax.TypeScript, syntax.TSX:
		if !strings.HasPrefix(im.Spec, "./") && !strings.HasPrefix(im.Spec, "../") && im.Spec != "." && im.Spec != ".." && !strings.HasPrefix(im.Spec, "/") {
			return resolved{status: resExternal, note: "a package"}
		}
		base := filepath.Join(dir, filepath.FromSlash(im.Spec))
		if strings.HasPrefix(im.Spec, "/") {
			base = filepath.FromSlash(im.Spec)
		}
		return found(jsFile(base))
	case syntax.Rust:
		return rs.resolveRust(abs, im, found)
	case syntax.C, syntax.Cpp:
		if im.Kind == "include-system" {
			return resolved{status: resExternal, note: "a system header"}
		}
		f := filepath.FromSlash(im.Spec)
		return found(firstFile(filepath.Join(dir, f), filepath.Join(rs.root, f), filepath.Join(rs.root, "include", f)))
	case syntax.Ruby:
		f := filepath.FromSlash(im.Spec)
		if !strings.HasSuffix(f, ".rb") {
			f += ".rb"
		}
		if im.Kind == "require_relative" {
			return found(firstFile(filepath.Join(dir, f)))
		}
		if r := found(firstFile(filepath.Join(rs.root, "lib", f), filepath.Join(rs.root, f))); r.status == resWorkspace {
			return r
		}
		return resolved{status: resExternal, note: "a gem or the standard library"}
	case syntax.Java:
		spec := strings.TrimPrefix(im.Spec, "static ")
		parts := strings.Split(spec, ".")
		for _, sr := range []string{"src/main/java", "src/test/java", "src", "."} {
			for n := len(parts); n >= 1; n-- {
				f := filepath.Join(append([]string{rs.root, sr}, parts[:n]...)...) + ".java"
				if isFile(f) {
					return found(f)
				}
			}
		}
		return resolved{status: resExternal}
	}
	return resolved{status: resUnresolved}
}

// jsFile is the file a relative JavaScript or TypeScript specifier names.
func jsFile(base string) string {
	exts := []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}
	if isFile(base) {
		return base
	}
	for _, e := range exts {
		if isFile(base + e) {
			return base + e
		}
	}
	// TypeScript's ESM style: "./x.js" names x.ts.
	if ext := filepath.Ext(base); ext == ".js" || ext == ".jsx" || ext == ".mjs" {
		stem := strings.TrimSuffix(base, ext)
		for _, e := range []string{".ts", ".tsx", ".mts"} {
			if isFile(stem + e) {
				return stem + e
			}
		}
	}
	for _, e := range exts {
		if f := filepath.Join(base, "index"+e); isFile(f) {
			return f
		}
	}
	return ""
}

// pyModule is the file of module parts under base: base/a/b.py or
// base/a/b/__init__.py.
func pyModule(base string, parts []string) string {
	p := filepath.Join(append([]string{base}, parts...)...)
	if len(parts) == 0 {
		return firstFile(filepath.Join(p, "__init__.py"))
	}
	return firstFile(p+".py", p+".pyi", filepath.Join(p, "__init__.py"))
}

// resolvePython resolves an import or from-import.
func (rs *resolver) resolvePython(abs string, im syntax.Import, found func(...string) resolved) resolved {
	dir := filepath.Dir(abs)
	spec := im.Spec
	level := len(spec) - len(strings.TrimLeft(spec, "."))
	var parts []string
	if rest := spec[level:]; rest != "" {
		parts = strings.Split(rest, ".")
	}
	var bases []string
	if level > 0 {
		b := dir
		for i := 1; i < level; i++ {
			b = filepath.Dir(b)
		}
		bases = []string{b}
	} else {
		// The folder above the file's top package, then every folder from
		// the file's up to the workspace (a tests/ folder beside the
		// package), and the workspace's src/.
		top := dir
		for isFile(filepath.Join(top, "__init__.py")) && filepath.Dir(top) != top {
			top = filepath.Dir(top)
		}
		bases = []string{top}
		for d := dir; rs.inRoot(d); d = filepath.Dir(d) {
			if !contains(bases, d) {
				bases = append(bases, d)
			}
			if d == rs.root || filepath.Dir(d) == d {
				break
			}
		}
		bases = append(bases, filepath.Join(rs.root, "src"))
	}
	for _, b := range bases {
		var files []string
		if im.Kind == "from" {
			for _, n := range im.Names {
				if n != "*" {
					files = append(files, pyModule(b, append(append([]string(nil), parts...), n)))
				}
			}
		}
		if m := pyModule(b, parts); m != "" {
			// from pkg import name: name is a submodule, or a name in pkg.
			var subs []string
			for _, f := range files {
				if f != "" {
					subs = append(subs, f)
				}
			}
			if len(subs) == 0 {
				files = append(files, m)
			}
		}
		if r := found(files...); r.status != resUnresolved {
			return r
		}
	}
	if level == 0 {
		return resolved{status: resExternal, note: "an installed package or the standard library"}
	}
	return resolved{status: resUnresolved}
}

// rustModDir is the folder holding the child modules of the module that
// file abs defines.
func rustModDir(abs string) string {
	switch filepath.Base(abs) {
	case "main.rs", "lib.rs", "mod.rs":
		return filepath.Dir(abs)
	}
	return strings.TrimSuffix(abs, ".rs")
}

// rustPath resolves module segments under a module folder: the longest
// prefix that names a file (a.rs or a/mod.rs).
func rustPath(dir string, segs []string) string {
	for n := len(segs); n >= 1; n-- {
		p := filepath.Join(append([]string{dir}, segs[:n]...)...)
		if f := firstFile(p+".rs", filepath.Join(p, "mod.rs")); f != "" {
			return f
		}
	}
	return ""
}

// resolveRust resolves a mod declaration or a use path.
func (rs *resolver) resolveRust(abs string, im syntax.Import, found func(...string) resolved) resolved {
	if im.Kind == "mod" {
		d := rustModDir(abs)
		return found(firstFile(filepath.Join(d, im.Spec+".rs"), filepath.Join(d, im.Spec, "mod.rs")))
	}
	segs := strings.Split(im.Spec, "::")
	var dir string
	switch segs[0] {
	case "crate":
		for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
			if isFile(filepath.Join(d, "Cargo.toml")) {
				dir = filepath.Join(d, "src")
				break
			}
			if filepath.Dir(d) == d || !rs.inRoot(d) {
				break
			}
		}
	case "self":
		dir = rustModDir(abs)
	case "super":
		dir = filepath.Dir(abs)
		if b := filepath.Base(abs); b == "mod.rs" {
			dir = filepath.Dir(dir)
		}
		for len(segs) > 1 && segs[1] == "super" {
			dir, segs = filepath.Dir(dir), segs[1:]
		}
	default:
		return resolved{status: resExternal, note: "another crate"}
	}
	if dir == "" {
		return resolved{status: resUnresolved}
	}
	rest := segs[1:]
	var files []string
	for _, n := range im.Names {
		if f := rustPath(dir, append(append([]string(nil), rest...), strings.Split(n, "::")...)); f != "" {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		if f := rustPath(dir, rest); f != "" {
			files = append(files, f)
		} else if segs[0] == "crate" {
			files = append(files, firstFile(filepath.Join(dir, "lib.rs"), filepath.Join(dir, "main.rs")))
		}
	}
	return found(files...)
}

// goBuildNote says whether go/build leaves a Go file out on this platform
// (its build constraints or file name), as go list does.
func goBuildNote(abs string) string {
	if !goMatchFile(abs) {
		return "excluded by build constraints on " + build.Default.GOOS + "/" + build.Default.GOARCH
	}
	return ""
}

// goMatchFile is go/build's MatchFile for this platform (build tags,
// GOOS/GOARCH file names, cgo), reading the file under the path policy.
func goMatchFile(abs string) bool {
	ctx := build.Default
	ctx.OpenFile = func(p string) (io.ReadCloser, error) { return openChecked(p) }
	ok, err := ctx.MatchFile(filepath.Dir(abs), filepath.Base(abs))
	return err != nil || ok
}

// slashRel is rel of abs to root, '/'-separated, "./"-free.
func slashRel(root, abs string) string { return path.Clean(relSlash(root, abs)) }
