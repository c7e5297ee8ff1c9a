// Command measure reports how often syntax.Enclosing answers with a
// declaration (rather than a fallback) for lines that lie inside one, as
// decided by an independent judge:
//
//   - go: go/parser and go/ast over a tree (default: $(go env GOROOT)/src);
//     a line is inside a top-level declaration from its doc comment to its
//     end. Files go/parser rejects are left out.
//   - python: python3's ast module (module-level def, class and
//     assignments, decorators included); files it rejects are left out.
//   - rust, typescript: a layout judge for conventionally formatted code: an
//     item starts on an unindented line with a declaration keyword and ends
//     where its braces close (or at its `;`).
//
// Lines are sampled uniformly over all inside lines of the tree (-n, -seed);
// with -all every inside line is asked. Usage:
//
//	go run ./syntax/internal/measure -lang go
//	go run ./syntax/internal/measure -lang python -root /usr/lib/python3.11
//	go run ./syntax/internal/measure -lang rust -root testdata/syntax -all -exclude broken
//
// It is a measuring tool, not a test: it prints figures and exits 0.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/evgrep/evgrep/syntax"
)

// span is a 1-based inclusive line range judged to be one declaration.
type span struct{ Start, End int }

// file is one source with its judged declarations.
type file struct {
	path  string
	spans []span
	lines int // inside lines
}

func main() {
	lang := flag.String("lang", "go", "go, python, rust or typescript")
	root := flag.String("root", "", "tree to measure (default: GOROOT/src for go, the python3 stdlib for python)")
	n := flag.Int("n", 3000, "lines to sample")
	seed := flag.Int64("seed", 1, "random seed")
	all := flag.Bool("all", false, "ask every inside line instead of sampling")
	verbose := flag.Bool("v", false, "print each fallback")
	exclude := flag.String("exclude", "", "leave out files whose path matches this regular expression")
	flag.Parse()

	if *root == "" {
		switch *lang {
		case "go":
			out, err := exec.Command("go", "env", "GOROOT").Output()
			if err != nil {
				fail(err)
			}
			*root = filepath.Join(strings.TrimSpace(string(out)), "src")
		case "python":
			out, err := exec.Command("python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
			if err != nil {
				fail(err)
			}
			*root = strings.TrimSpace(string(out))
		default:
			fail(errors.New("-root is required for " + *lang))
		}
	}
	ext := map[string]string{"go": ".go", "python": ".py", "rust": ".rs", "typescript": ".ts"}[*lang]
	if ext == "" {
		fail(errors.New("unknown -lang " + *lang))
	}
	var skip *regexp.Regexp
	if *exclude != "" {
		var err error
		if skip, err = regexp.Compile(*exclude); err != nil {
			fail(err)
		}
	}
	var paths []string
	_ = filepath.WalkDir(*root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ext) && (skip == nil || !skip.MatchString(p)) {
			if info, err := d.Info(); err == nil && info.Size() <= syntax.MaxSource && info.Mode().IsRegular() {
				paths = append(paths, p)
			}
		}
		return nil
	})
	sort.Strings(paths)

	var files []file
	var rejected int
	switch *lang {
	case "go":
		files, rejected = judgeGo(paths)
	case "python":
		files, rejected = judgePython(paths)
	default:
		files = judgeLayout(*lang, paths)
	}
	total := 0
	for _, f := range files {
		total += f.lines
	}
	fmt.Printf("tree %s: %d %s files, %d judged (%d rejected by the judge), %d lines inside declarations\n",
		*root, len(paths), ext, len(files), rejected, total)
	if total == 0 {
		return
	}

	// Choose the lines: every one, or n uniform draws over all of them.
	picks := map[int][]int{} // file index → lines
	if *all || *n >= total {
		for i, f := range files {
			for _, s := range f.spans {
				for l := s.Start; l <= s.End; l++ {
					picks[i] = append(picks[i], l)
				}
			}
		}
	} else {
		rng := rand.New(rand.NewSource(*seed))
		cum := make([]int, len(files))
		acc := 0
		for i, f := range files {
			acc += f.lines
			cum[i] = acc
		}
		for k := 0; k < *n; k++ {
			g := rng.Intn(total)
			i := sort.SearchInts(cum, g+1)
			off := g
			if i > 0 {
				off -= cum[i-1]
			}
			picks[i] = append(picks[i], nthLine(files[i].spans, off))
		}
	}

	slang := map[string]syntax.Language{"go": syntax.Go, "python": syntax.Python, "rust": syntax.Rust, "typescript": syntax.TypeScript}[*lang]
	var asked, ok, agree, synErr, noDecl, other int
	for i, lines := range picks {
		src, err := os.ReadFile(files[i].path)
		if err != nil {
			continue
		}
		for _, l := range lines {
			asked++
			d, err := syntax.Enclosing(slang, src, l)
			switch {
			case err == nil:
				ok++
				if within(files[i].spans, d, l) {
					agree++
				} else if *verbose {
					fmt.Printf("outside the judged declaration %s:%d: %s %s %d-%d\n", files[i].path, l, d.Kind, d.Name, d.StartLine, d.EndLine)
				}
				continue
			case errors.Is(err, syntax.ErrSyntax):
				synErr++
			case errors.Is(err, syntax.ErrNoDecl):
				noDecl++
			default:
				other++
			}
			if *verbose {
				fmt.Printf("fallback %s:%d: %v\n", files[i].path, l, err)
			}
		}
	}
	fmt.Printf("asked %d lines: declaration %d (%.2f%%), of which inside the judged declaration %d (%.2f%%); fallbacks: syntax error %d, no declaration %d, other %d\n",
		asked, ok, pct(ok, asked), agree, pct(agree, ok), synErr, noDecl, other)
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "measure:", err)
	os.Exit(2)
}

// nthLine is the off-th inside line of spans.
func nthLine(spans []span, off int) int {
	for _, s := range spans {
		if n := s.End - s.Start + 1; off >= n {
			off -= n
			continue
		}
		return s.Start + off
	}
	return spans[len(spans)-1].End
}

// within: the answer lies inside the judged declaration that holds line
// (an answer may start a little earlier when it takes comments the judge
// does not count; it must hold the line and not end past the judged span).
func within(spans []span, d syntax.Decl, line int) bool {
	for _, s := range spans {
		if s.Start <= line && line <= s.End {
			return d.EndLine <= s.End && d.StartLine <= line && d.EndLine >= line
		}
	}
	return false
}

// count sets the inside-line total of f.
func (f *file) count() {
	sort.Slice(f.spans, func(i, j int) bool { return f.spans[i].Start < f.spans[j].Start })
	// Merge overlaps so no line counts twice.
	var merged []span
	for _, s := range f.spans {
		if len(merged) > 0 && s.Start <= merged[len(merged)-1].End {
			if s.End > merged[len(merged)-1].End {
				merged[len(merged)-1].End = s.End
			}
			continue
		}
		merged = append(merged, s)
	}
	f.spans = merged
	for _, s := range merged {
		f.lines += s.End - s.Start + 1
	}
}

// judgeGo uses go/parser: each top-level declaration but imports, from its
// doc comment to its end.
func judgeGo(paths []string) ([]file, int) {
	var out []file
	rejected := 0
	for _, p := range paths {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			rejected++
			continue
		}
		fl := file{path: p}
		for _, d := range f.Decls {
			start, end := d.Pos(), d.End()
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Doc != nil {
					start = d.Doc.Pos()
				}
			case *ast.GenDecl:
				if d.Tok == token.IMPORT {
					continue
				}
				if d.Doc != nil {
					start = d.Doc.Pos()
				}
			}
			fl.spans = append(fl.spans, span{fset.PositionFor(start, false).Line, fset.PositionFor(end, false).Line})
		}
		fl.count()
		if fl.lines > 0 {
			out = append(out, fl)
		}
	}
	return out, rejected
}

// judgePython asks python3's ast module for module-level definitions.
func judgePython(paths []string) ([]file, int) {
	const script = `
import ast, json, sys, warnings
warnings.simplefilter("ignore")
for p in sys.stdin.read().split("\0"):
    if not p:
        continue
    try:
        with open(p, "rb") as fh:
            tree = ast.parse(fh.read(), p)
    except Exception:
        print(json.dumps({"path": p, "error": True})); continue
    spans = []
    for n in tree.body:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            start = min([n.lineno] + [d.lineno for d in n.decorator_list])
            spans.append([start, n.end_lineno])
        elif isinstance(n, (ast.Assign, ast.AnnAssign)):
            spans.append([n.lineno, n.end_lineno])
    print(json.dumps({"path": p, "spans": spans}))
`
	cmd := exec.Command("python3", "-c", script)
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\x00"))
	out, err := cmd.Output()
	if err != nil {
		fail(fmt.Errorf("python3 judge: %w", err))
	}
	var files []file
	rejected := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var r struct {
			Path  string   `json:"path"`
			Error bool     `json:"error"`
			Spans [][2]int `json:"spans"`
		}
		if json.Unmarshal(sc.Bytes(), &r) != nil {
			continue
		}
		if r.Error {
			rejected++
			continue
		}
		f := file{path: r.Path}
		for _, s := range r.Spans {
			f.spans = append(f.spans, span{s[0], s[1]})
		}
		f.count()
		if f.lines > 0 {
			files = append(files, f)
		}
	}
	return files, rejected
}

// Layout judges: an unindented line starting a declaration.
var itemStart = map[string]*regexp.Regexp{
	"rust":       regexp.MustCompile(`^(pub(\([^)]*\))? )?((async|unsafe|const|extern( "C")?) )*(fn|struct|enum|union|trait|impl|mod|const|static|type|macro_rules!)\b`),
	"typescript": regexp.MustCompile(`^(export )?(default )?(declare )?(async )?(abstract )?(function\*?|class|interface|type|enum|namespace|module|const|let|var)\b`),
}

// judgeLayout applies the layout judge of lang.
func judgeLayout(lang string, paths []string) []file {
	re := itemStart[lang]
	var out []file
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		lines := strings.Split(string(src), "\n")
		f := file{path: p}
		for i := 0; i < len(lines); i++ {
			if !re.MatchString(lines[i]) {
				continue
			}
			depth, opened, end := 0, false, -1
			for j := i; j < len(lines) && end < 0; j++ {
				code := stripLineComment(lines[j])
				for _, c := range code {
					switch c {
					case '{', '(', '[':
						depth++
						opened = true
					case '}', ')', ']':
						depth--
					}
				}
				t := strings.TrimSpace(code)
				if depth <= 0 && (opened || strings.HasSuffix(t, ";")) {
					end = j
				}
			}
			if end < 0 {
				continue
			}
			f.spans = append(f.spans, span{i + 1, end + 1})
			i = end
		}
		f.count()
		if f.lines > 0 {
			out = append(out, f)
		}
	}
	return out
}

// stripLineComment drops a trailing // comment (outside quotes, roughly).
func stripLineComment(s string) string {
	inStr := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr != 0:
			if c == '\\' {
				i++
			} else if c == inStr {
				inStr = 0
			}
		case c == '"' || c == '\'' || c == '`':
			if c == '\'' && i+2 < len(s) && s[i+2] != '\'' {
				continue // a Rust lifetime, not a char literal
			}
			inStr = c
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			return s[:i]
		}
	}
	return s
}
