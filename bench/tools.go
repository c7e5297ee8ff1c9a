package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// The tools the harness knows, in report order.
const (
	toolEvgrep  = "evgrep"
	toolRg      = "rg"
	toolGrep    = "grep"
	toolGitGrep = "git grep"
	toolUgrep   = "ugrep"
	// toolAstGrep runs the structural queries only (ast-grep run).
	toolAstGrep = "ast-grep"
)

// knownTools lists every tool name accepted by --tools, in report order.
var knownTools = []string{toolEvgrep, toolRg, toolGrep, toolGitGrep, toolUgrep, toolAstGrep}

// versionTimeout bounds `tool --version`.
const versionTimeout = 5 * time.Second

// Tool is one installed search tool.
type Tool struct {
	// Name is one of knownTools.
	Name string `json:"name"`
	// Path is the executable (for git grep: the git executable).
	Path string `json:"path"`
	// Version is the first line of the tool's version output.
	Version string `json:"version"`
	// Timeout kills one run of the tool.
	Timeout time.Duration `json:"-"`
}

// Target is where a query runs: a directory tree or a single file.
type Target struct {
	// Path is the absolute path of the tree root or of the file.
	Path string
	// IsFile is true for the single large file.
	IsFile bool
}

// Invocation is one command line, ready to run.
type Invocation struct {
	// Args holds the executable in Args[0] and its arguments.
	Args []string
	// Dir is the working directory.
	Dir string
}

// String renders the invocation roughly as a shell would need it.
func (inv Invocation) String() string {
	parts := make([]string, len(inv.Args))
	for i, a := range inv.Args {
		if i == 0 {
			a = filepath.Base(a)
		}
		parts[i] = shellQuote(a)
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r == '/' || r == '=' || r == ',' ||
			r == ':' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Invocation builds the command line that runs q on t with this tool, with
// flags equivalent to rg's: no colour, line numbers only when the query
// asks, binary files skipped, hidden files skipped. A tree is searched from
// its parent directory so that every tool prints short relative paths (git
// grep, which must run inside the tree, prints paths relative to the root).
// ok is false when the tool has no equivalent of the query (--files for
// the grep family).
func (t Tool) Invocation(q Query, tg Target) (inv Invocation, ok bool) {
	dir, base := filepath.Split(tg.Path)
	dir = filepath.Clean(dir)
	if base == "" { // the root directory itself
		dir, base = tg.Path, "."
	}
	if q.Lang != "" {
		// A structural query: evgrep --ast against ast-grep run.
		switch t.Name {
		case toolEvgrep:
			return Invocation{Args: []string{t.Path, "--ast", q.Pattern, "--lang", q.Lang, base}, Dir: dir}, true
		case toolAstGrep:
			return Invocation{Args: []string{t.Path, "run", "--color", "never", "-p", q.Pattern, "-l", q.Lang, base}, Dir: dir}, true
		}
		return Invocation{}, false
	}
	if q.Agent {
		switch t.Name {
		case toolEvgrep:
			req, _ := json.Marshal(map[string]string{"pattern": q.Pattern, "path": base})
			return Invocation{Args: []string{t.Path, "--agent", string(req)}, Dir: dir}, true
		case toolRg:
			return Invocation{Args: []string{t.Path, "--json", "--hidden", "--smart-case", "-e", q.Pattern, base}, Dir: dir}, true
		}
		return Invocation{}, false
	}
	if q.Multiline && !isCore(t.Name) {
		return Invocation{}, false
	}
	switch t.Name {
	case toolEvgrep, toolRg:
		args := []string{t.Path, "--color=never"}
		if q.Engine != "" {
			args = append(args, "--engine", q.Engine)
		}
		if q.Multiline {
			args = append(args, "-U")
		}
		if q.Files {
			return Invocation{Args: append(args, "--files", base), Dir: dir}, true
		}
		if q.LineNumber {
			args = append(args, "-n")
		} else {
			args = append(args, "-N")
		}
		args = appendCaseWord(args, q)
		args = append(args, "-e", q.Pattern, base)
		return Invocation{Args: args, Dir: dir}, true
	case toolGrep:
		if q.Files {
			return Invocation{}, false
		}
		args := []string{t.Path, "-r", "-I", "--color=never"}
		args = appendLineCaseWord(args, q)
		args = append(args, grepSyntaxFlag(q.Syntax), "-e", q.Pattern)
		if !tg.IsFile {
			args = append(args, "--exclude=.*", "--exclude-dir=.*")
		}
		return Invocation{Args: append(args, base), Dir: dir}, true
	case toolGitGrep:
		if q.Files {
			return Invocation{}, false
		}
		args := []string{t.Path, "--no-pager", "grep", "--no-index", "-I", "--no-color"}
		args = appendLineCaseWord(args, q)
		args = append(args, grepSyntaxFlag(q.Syntax), "-e", q.Pattern, "--")
		if tg.IsFile {
			return Invocation{Args: append(args, base), Dir: dir}, true
		}
		args = append(args, ".", ":(exclude,glob)**/.*")
		return Invocation{Args: args, Dir: tg.Path}, true
	case toolUgrep:
		if q.Files {
			return Invocation{}, false
		}
		args := []string{t.Path, "-r", "-I", "--color=never"}
		args = appendLineCaseWord(args, q)
		if q.Syntax == Literal {
			args = append(args, "-F")
		} else if q.Engine != "" {
			args = append(args, "-P")
		}
		// ugrep's own regex engine reads \p{...}, \w and \s natively
		// (Unicode-aware) and skips hidden files by default.
		return Invocation{Args: append(args, "-e", q.Pattern, base), Dir: dir}, true
	}
	return Invocation{}, false
}

// appendCaseWord adds -i and -w as the query asks.
func appendCaseWord(args []string, q Query) []string {
	if q.IgnoreCase {
		args = append(args, "-i")
	}
	if q.Word {
		args = append(args, "-w")
	}
	return args
}

// appendLineCaseWord adds -n, -i and -w as the query asks (grep-family tools
// print no line numbers by default).
func appendLineCaseWord(args []string, q Query) []string {
	if q.LineNumber {
		args = append(args, "-n")
	}
	return appendCaseWord(args, q)
}

// grepSyntaxFlag is the grep-family switch for a pattern dialect.
func grepSyntaxFlag(s Syntax) string {
	switch s {
	case Literal:
		return "-F"
	case Perl:
		return "-P"
	}
	return "-E"
}

// findTools resolves the wanted tools. evgrep is taken from evgrepPath
// (required), rg from rgPath when given (the reference, ripgrep 15.2),
// the others from PATH; a tool not found is skipped.
func findTools(evgrepPath, rgPath string, wanted []string) ([]Tool, []string, error) {
	want := map[string]bool{}
	for _, w := range wanted {
		want[w] = true
	}
	var tools []Tool
	var missing []string
	for _, name := range knownTools {
		if !want[name] {
			continue
		}
		var path string
		var err error
		switch name {
		case toolEvgrep:
			path, err = exec.LookPath(evgrepPath)
			if err != nil && !strings.ContainsRune(evgrepPath, filepath.Separator) {
				path, err = exec.LookPath("." + string(filepath.Separator) + evgrepPath)
			}
			if err != nil {
				return nil, nil, fmt.Errorf("evgrep binary %q: %v (run `make build` first)", evgrepPath, err)
			}
			path, err = filepath.Abs(path)
			if err != nil {
				return nil, nil, err
			}
		case toolRg:
			if rgPath == "" {
				rgPath = toolRg
			}
			if path, err = exec.LookPath(rgPath); err == nil {
				path, err = filepath.Abs(path)
			}
		case toolGitGrep:
			path, err = exec.LookPath("git")
		default:
			path, err = exec.LookPath(name)
		}
		if err != nil {
			missing = append(missing, name)
			continue
		}
		tools = append(tools, Tool{Name: name, Path: path, Version: toolVersion(path)})
	}
	return tools, missing, nil
}

// installCopies writes a copy of the evgrep and rg executables into dir
// and points the tools at them, so that both binaries are measured in the
// same state: freshly written in ordinary chunks, as cp, install, dpkg or
// a container layer leave an installed binary. Peak RSS counts the pages
// of its own executable a process maps, and on Linux 6.18 that depends on
// how the file entered the page cache: a binary just written by the Go
// linker sits in 2 MiB folios that a fault maps whole (evgrep --version:
// 16.5 MB resident), the same bytes copied sit in small folios (10.9 MB),
// as rg's packaged binary does. Measured and explained in bench/README.md.
func installCopies(tools []Tool, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i := range tools {
		if !isCore(tools[i].Name) {
			continue
		}
		dst := filepath.Join(dir, tools[i].Name)
		if err := copyExecutable(tools[i].Path, dst); err != nil {
			return fmt.Errorf("copying %s: %v", tools[i].Path, err)
		}
		tools[i].Path = dst
	}
	return nil
}

// copyExecutable writes src to dst (through a temporary name) with plain
// write calls of copyChunk bytes: not io.Copy, whose copy_file_range may
// share or splice pages instead of writing them.
func copyExecutable(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp := dst + ".tmp"
	out, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	buf := make([]byte, copyChunk)
	for {
		n, rerr := in.Read(buf)
		if n > 0 {
			if _, werr := out.Write(buf[:n]); werr != nil {
				out.Close()
				return werr
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			out.Close()
			return rerr
		}
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}

// toolVersion is the first line of `path --version`, or "unknown".
func toolVersion(path string) string {
	ctx, cancel := context.WithTimeout(context.Background(), versionTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil && len(out) == 0 {
		return "unknown"
	}
	line, _, _ := bytes.Cut(out, []byte("\n"))
	if s := strings.TrimSpace(string(line)); s != "" {
		return s
	}
	return "unknown"
}

// parseToolList splits a --tools value and checks every name.
func parseToolList(s string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if f == "git" || f == "git-grep" {
			f = toolGitGrep
		}
		found := false
		for _, k := range knownTools {
			if f == k {
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown tool %q (known: %s)", f, strings.Join(knownTools, ", "))
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--tools: no tool named")
	}
	return out, nil
}
