// Package scope is the one description of what an analysis reads: the
// root, its sub-paths, the walk's rules (ignore files, hidden, globs,
// types, depth, size, links) and how the bytes are decoded. Every front end
// builds one (the command line from its flags, the agent and MCP from a
// request's fields) and every analysis walks and reads through it, so a
// flag means the same in every mode.
package scope

import (
	"path/filepath"
	"runtime"
	"strings"

	"github.com/evgrep/evgrep/internal/input"
	"github.com/evgrep/evgrep/internal/pipeline"
	"github.com/evgrep/evgrep/internal/search"
	"github.com/evgrep/evgrep/walker"
	"github.com/evgrep/evgrep/walker/ignore"
)

// Scope is where and how an analysis reads files.
type Scope struct {
	// Root is the absolute folder the results are relative to.
	Root string
	// Subs are sub-paths of Root (slash-separated, relative) to walk
	// instead of all of it: de-duplicated, none inside another (Dedupe).
	Subs []string
	// Walk holds the discovery rules.
	Walk walker.Options
	// Input is the decoding of the files read (-E, BOM sniffing).
	Input input.Options
}

// Agent returns the walk rules of an agent request: rg's defaults
// without the .git folder, hidden files when asked, the include globs and
// the excludes (as rg's -g and -g '!…').
func Agent(hidden bool, glob, exclude []string) walker.Options {
	wo := walker.DefaultOptions()
	wo.Hidden = hidden
	wo.SkipGitDir = true
	for _, g := range glob {
		wo.Globs = append(wo.Globs, ignore.OverrideGlob{Pattern: g})
	}
	for _, g := range exclude {
		wo.Globs = append(wo.Globs, ignore.OverrideGlob{Pattern: "!" + strings.TrimPrefix(g, "!")})
	}
	return wo
}

// Roots are the paths to walk: Root, or each of Subs under it.
func (s *Scope) Roots() []string {
	if len(s.Subs) == 0 {
		return []string{s.Root}
	}
	roots := make([]string, 0, len(s.Subs))
	for _, p := range s.Subs {
		roots = append(roots, filepath.Join(s.Root, filepath.FromSlash(p)))
	}
	return roots
}

// Pipeline returns the options of a line search over the scope, as the
// agent's searches read files: rg's --crlf line handling, line numbers,
// byte-order marks sniffed, binary files left at their first NUL, the
// scope's decoding and walk (the .git folder never walked).
func (s *Scope) Pipeline() *pipeline.Options {
	roots := s.Roots()
	wo := s.Walk
	wo.SkipGitDir = true
	if wo.Threads == 0 {
		wo.Threads = runtime.NumCPU()
	}
	return &pipeline.Options{
		Walk:   wo,
		Search: search.Config{LineTerm: '\n', CRLF: true, LineNumbers: true, BOMPeek: true},
		Binary: pipeline.Binary{Implicit: search.BinaryQuit, Explicit: search.BinaryQuit},
		Input:  s.Input,
		Mmap:   pipeline.MmapChoice(roots, false, false),
	}
}

// Rel is p relative to Root with '/' separators, or p itself (slashed)
// when it is not under Root.
func (s *Scope) Rel(p string) string {
	rel, err := filepath.Rel(s.Root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(rel)
}

// Dedupe returns the sub-paths without repeats and without any that lies
// inside another one of them (a walk of both would read its files twice),
// in their first order. "." (the root itself) makes the whole root: nil.
func Dedupe(subs []string) []string {
	var out []string
	for _, p := range subs {
		p = strings.TrimSuffix(filepath.ToSlash(filepath.Clean(p)), "/")
		if p == "." || p == "" {
			return nil
		}
		out = append(out, p)
	}
	var kept []string
	for i, p := range out {
		inside := false
		for j, q := range out {
			if i == j {
				continue
			}
			if q == p && j < i || strings.HasPrefix(p, q+"/") {
				inside = true
				break
			}
		}
		if !inside {
			kept = append(kept, p)
		}
	}
	return kept
}
