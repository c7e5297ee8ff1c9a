package app

import (
	"fmt"
	"strings"

	"github.com/evgrep/evgrep/internal/agent"
	"github.com/evgrep/evgrep/internal/astsearch"
)

// rewrite implements --rewrite TEMPLATE: a unified diff of every file the
// structural matches change; with --apply each file is written under the
// agent's apply rules (astsearch.WriteFile: inside the roots, not into
// credential stores or Git internals, owner, group and mode kept, not a
// file with several links) and only if it is still the revision that was
// read, else it is refused with a message. Exit 0 when something changed (or would), 1
// when nothing matched, 2 when a file was refused or failed.
func (r *run) rewrite(files []*keptFile) int {
	cfg := r.cfg
	apply := cfg.Structural.Apply
	changed := false
	// The agent's rules for an apply: inside the roots, never into a
	// credential store or Git internals, owner and mode kept.
	guard := astsearch.NewGuard(cfg.Paths, agent.WriteRefusal)
	for _, f := range files {
		edits := f.edits
		p := f.path
		if cfg.UsingDefaultPath {
			p = strings.TrimPrefix(p, "./")
		}
		diff := astsearch.UnifiedDiff(strings.TrimPrefix(p, "./"), f.src, edits)
		if diff == "" {
			continue
		}
		changed = true
		if !apply {
			r.out.WriteString(diff)
			continue
		}
		if err := astsearch.WriteFile(f.path, f.rev, astsearch.Apply(f.src, edits), guard); err != nil {
			errorLine(r.stderr, fmt.Sprintf("%s: %v", p, err))
			r.errored.Store(true)
			continue
		}
		fmt.Fprintf(r.out, "rewrote %s (%d edits)\n", p, len(edits))
	}
	switch {
	case r.errored.Load():
		return exitError
	case changed:
		return exitMatch
	}
	return exitNoMatch
}
