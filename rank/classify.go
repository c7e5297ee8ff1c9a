package rank

import (
	"path"
	"strings"
)

// Category is what a path is, for the path priors.
type Category uint8

// The categories of a path.
const (
	Code Category = iota
	Test
	TestData
	Vendor
	Generated
	Example
	Doc
)

var categoryNames = [...]string{"code", "test", "testdata", "vendor", "generated", "example", "doc"}

func (c Category) String() string { return categoryNames[c] }

// Classify puts a '/'-separated path in one category, the first that
// applies of: vendored (a vendor, third_party or node_modules folder),
// test data (testdata, fixtures), generated (the file says so, or its
// name: .pb.go, _generated., zz_generated; a build's output: JavaScript,
// TypeScript declarations or CSS in a dist folder, minified JavaScript),
// example (examples folders,
// example_test.go), test (_test., test_, .test., .spec., test and tests
// folders), documentation (.md, .rst, .txt, .adoc, a project's documents
// such as README or ChangeLog, doc and docs folders), else code.
func Classify(p string, generated bool) Category {
	segs := strings.Split(strings.ToLower(p), "/")
	base := segs[len(segs)-1]
	dirs := segs[:len(segs)-1]
	has := func(names ...string) bool {
		for _, d := range dirs {
			for _, n := range names {
				if d == n {
					return true
				}
			}
		}
		return false
	}
	switch {
	case has("vendor", "third_party", "node_modules"):
		return Vendor
	case has("testdata", "fixtures", "__fixtures__"):
		return TestData
	case generated || strings.HasSuffix(base, ".pb.go") || strings.Contains(base, "_generated.") || strings.HasPrefix(base, "zz_generated") ||
		has("dist") && webBuild(base) || minified(base):
		return Generated
	case has("examples", "example", "_examples") || strings.HasPrefix(base, "example_test.") || strings.HasPrefix(base, "example_"):
		return Example
	case strings.Contains(base, "_test.") || strings.HasPrefix(base, "test_") || strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") || has("test", "tests", "__tests__", "spec"):
		return Test
	}
	switch ext := path.Ext(base); {
	case ext == ".md" || ext == ".rst" || ext == ".txt" || ext == ".adoc":
		return Doc
	case ext == "" && projectDocs[base]:
		return Doc
	}
	if has("doc", "docs") {
		return Doc
	}
	return Code
}

// projectDocs are the names (lower case) of a project's own documents,
// files without an extension (install.c stays code) which a
// repository has whatever its language: a C project's COPYRIGHT and
// WHATSNEW name its functions and folders in prose (over the whole musl
// tree, COPYRIGHT came first for "how is a regular expression compiled",
// WHATSNEW second for getaddrinfo).
var projectDocs = map[string]bool{
	"readme": true, "install": true, "copying": true, "copyright": true, "license": true, "licence": true,
	"authors": true, "contributors": true, "credits": true, "thanks": true, "maintainers": true,
	"changes": true, "changelog": true, "news": true, "whatsnew": true, "history": true, "releases": true,
	"todo": true, "notice": true, "hacking": true, "contributing": true, "bugs": true, "patents": true,
}

// minified reports whether base names minified JavaScript (x.min.js,
// .min.mjs, .min.cjs): a build's output, like a dist folder's compiled
// copies of the sources (an npm package ships both: rxjs's dist/cjs,
// dist/esm, dist/esm5, dist/types and dist/bundles repeat every source
// file of its src).
func minified(base string) bool {
	for _, ext := range []string{".min.js", ".min.mjs", ".min.cjs"} {
		if strings.HasSuffix(base, ext) {
			return true
		}
	}
	return false
}

// webBuild reports whether base is what a web build writes to its dist
// folder: JavaScript, TypeScript declarations, CSS. Go's cmd/dist, a
// dist folder of Go sources, stays code.
func webBuild(base string) bool {
	if strings.HasSuffix(base, ".d.ts") {
		return true
	}
	switch path.Ext(base) {
	case ".js", ".mjs", ".cjs", ".css":
		return true
	}
	return false
}

// isHeader reports whether path is a C or C++ header (.h, .hh, .hpp,
// .hxx); isCppSource whether it is a C++ source file.
func isHeader(path string) bool {
	switch extOf(path) {
	case ".h", ".hh", ".hpp", ".hxx":
		return true
	}
	return false
}

func isCppSource(path string) bool {
	switch extOf(path) {
	case ".cc", ".cpp", ".cxx", ".c++":
		return true
	}
	return false
}

func extOf(path string) string {
	i := strings.LastIndexByte(path, '.')
	if i < 0 || i < strings.LastIndexByte(path, '/') {
		return ""
	}
	return path[i:]
}

// prior is the multiplier of category c for query q.
func (p *Params) prior(c Category, q *Query) float64 {
	switch c {
	case Test:
		if q.mentions("test", "tests", "testing") {
			return p.Mentioned
		}
		return p.Test
	case TestData:
		if q.mentions("testdata", "fixture", "golden") {
			return p.Mentioned
		}
		return p.TestData
	case Vendor:
		if q.mentions("vendor", "vendored") {
			return p.Mentioned
		}
		return p.Vendor
	case Generated:
		if q.mentions("generated", "generat") {
			return p.Mentioned
		}
		return p.Generated
	case Example:
		if q.mentions("example", "exampl") {
			return p.Mentioned
		}
		return p.Example
	case Doc:
		if q.mentions("doc", "docs", "documentation", "documentat", "readme") {
			return p.Mentioned
		}
		if q.Symbol {
			return p.DocSymbol
		}
		return p.DocNatural
	}
	return 1
}

// category is file fi's Category, classified on first use: a query
// classifies its candidates' files, not every path of the index (all
// 11,478 of GOROOT/src on each warm query, 6 ms).
func (ix *Index) category(fi int32) Category {
	c := &ix.lazy.cats[fi]
	if v := c.Load(); v != 0 {
		return Category(v - 1)
	}
	f := &ix.files[fi]
	cat := Classify(f.path, f.generated)
	c.Store(uint32(cat) + 1)
	return cat
}
