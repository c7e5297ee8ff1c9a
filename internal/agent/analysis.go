package agent

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/evgrep/evgrep/internal/input"
	"github.com/evgrep/evgrep/internal/oserr"
	"github.com/evgrep/evgrep/internal/scope"
	"github.com/evgrep/evgrep/snapshot"
)

// Shared helpers of the analyses (impact, imports, tests): the pipeline's
// options for a walk under the agent's rules, a tap that keeps a file's
// bytes, and reading one named file under the path policy.

// scopeOf is the scope of a request under root: the front end's own walk
// and decoding rules when it gives them (Env.Scope: the command line's
// ignore, hidden, glob, type, depth, size and link flags, -E), else the
// request's hidden, glob and exclude; the sub-paths de-duplicated.
func scopeOf(r *Request, env Env, root string, subs []string) *scope.Scope {
	sc := &scope.Scope{Root: root, Subs: scope.Dedupe(subs)}
	if env.Scope != nil {
		sc.Walk, sc.Input = env.Scope.Walk, env.Scope.Input
	} else {
		sc.Walk = scope.Agent(r.hidden(), r.Glob, r.Exclude)
		// A request's globs name paths under its root, wherever the
		// server runs.
		sc.Walk.GlobRoot = root
	}
	return sc
}

// inputOf is the decoding of the front end's files: its scope's, else the
// search's default (byte-order marks only).
func inputOf(env Env) input.Options {
	if env.Scope != nil {
		return env.Scope.Input
	}
	return input.Options{}
}

// readNamed reads one file named by the caller under the path policy, up
// to snapshot.MaxInspectBytes (a longer file is an error).
func readNamed(abs string) ([]byte, error) {
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if forbidden(abs) {
		return nil, &Error{Code: CodePathForbidden, Msg: shorten(abs, maxEchoBytes) + " " + forbiddenMsg}
	}
	f, err := openChecked(abs)
	if err != nil {
		if errors.Is(err, errPathForbidden) {
			return nil, &Error{Code: CodePathForbidden, Msg: shorten(abs, maxEchoBytes) + " " + forbiddenMsg}
		}
		return nil, &Error{Code: CodePathMissing, Msg: shorten(abs, maxEchoBytes) + ": " + oserr.Wrap(err).Error()}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, snapshot.MaxInspectBytes+1))
	if err != nil {
		return nil, &Error{Code: CodePathMissing, Msg: shorten(abs, maxEchoBytes) + ": " + err.Error()}
	}
	if len(data) > snapshot.MaxInspectBytes {
		return nil, invalid("%s is over the %d MiB cap of a file to analyse", shorten(abs, maxEchoBytes), snapshot.MaxInspectBytes>>20)
	}
	return data, nil
}

// workspaceOf is the folder an analysis of file searches: the current
// directory when file lies under it, else the nearest folder above file
// that holds a go.mod, .git, package.json, Cargo.toml, pyproject.toml or
// setup.py, else the file's own folder.
func workspaceOf(file, cwd string) string {
	if cwd != "" {
		if rel, err := filepath.Rel(cwd, file); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return cwd
		}
	}
	for dir := filepath.Dir(file); ; {
		for _, m := range workspaceMarkers {
			if _, err := os.Lstat(filepath.Join(dir, m)); err == nil {
				return dir
			}
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	return filepath.Dir(file)
}

// workspaceMarkers name the files that mark a project's root folder.
var workspaceMarkers = []string{"go.mod", ".git", "package.json", "Cargo.toml", "pyproject.toml", "setup.py"}

// relSlash is p relative to root with '/' separators (p itself when it is
// not under root).
func relSlash(root, p string) string {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(rel)
}
