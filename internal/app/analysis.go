package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/evgrep/evgrep/internal/agent"
	"github.com/evgrep/evgrep/internal/scope"
	"github.com/evgrep/evgrep/walker"
)

// analysis implements --impact FILE:LINE, --impact-symbol NAME [PATH],
// --imports FILE and --tests FILE:
// the agent's analysis answered whole (every item, no cursor), as text or,
// with --json, one JSON object per item then a summary object. Exit codes
// as a search: 0 with items, 1 without, 2 on an error.
func (r *run) analysis(wopts walker.Options) int {
	cfg := r.cfg
	cwd, _ := os.Getwd()
	req := &agent.Request{Mode: agent.ModeImpact}
	hidden := wopts.Hidden
	req.Hidden = &hidden
	if cfg.ParseBudgetSet {
		n := cfg.ParseBudget
		req.ParseBudget = &n
	}
	switch cfg.Analysis {
	case "impact":
		i := strings.LastIndexByte(cfg.AnalysisTarget, ':')
		line, err := strconv.Atoi(cfg.AnalysisTarget[i+1:])
		if i <= 0 || err != nil || line < 1 {
			fmt.Fprintf(r.stderr, "evgrep: --impact takes FILE:LINE (a 1-based line), not %q\n", cfg.AnalysisTarget)
			return exitError
		}
		if len(cfg.Paths) > 0 {
			fmt.Fprintln(r.stderr, "evgrep: --impact FILE:LINE takes no paths (it searches the workspace of FILE)")
			return exitError
		}
		req.Path, req.Line = cfg.AnalysisTarget[:i], line
	case "imports", "tests":
		if len(cfg.Paths) > 0 {
			fmt.Fprintf(r.stderr, "evgrep: --%s FILE takes no paths (it searches the workspace of FILE)\n", cfg.Analysis)
			return exitError
		}
		req.Mode, req.Path = cfg.Analysis, cfg.AnalysisTarget
		req.Glob = nil
		if cfg.ParseBudgetSet || len(wopts.Globs) > 0 {
			fmt.Fprintf(r.stderr, "evgrep: --%s takes neither --parse-budget nor -g\n", cfg.Analysis)
			return exitError
		}
		req.ParseBudget = nil
	case "impact-symbol":
		req.Symbol = cfg.AnalysisTarget
		if len(cfg.Paths) > 1 {
			fmt.Fprintln(r.stderr, "evgrep: --impact-symbol NAME takes at most one PATH (the folder to search)")
			return exitError
		}
		if len(cfg.Paths) == 1 {
			req.Path = cfg.Paths[0]
		}
	}
	// The command line's scope flags (ignore rules, hidden, globs, types,
	// depth, size, links, -E) make the analysis's walk, as for a search.
	sc := &scope.Scope{Walk: wopts, Input: cfg.Pipeline.Input}
	a := agent.HandleFull(context.Background(), req, agent.Env{Cwd: cwd, Scope: sc})
	if a.Failed {
		msg := a.Text
		if e := a.Details.Error; e != nil {
			msg = e.Message
		}
		fmt.Fprintln(r.stderr, "evgrep:", strings.TrimSpace(msg))
		return exitError
	}
	if nav := a.Details.Navigation; nav != nil {
		return r.printNav(a, nav)
	}
	im := a.Details.Impact
	if cfg.JSON && im != nil {
		sum := *im
		sum.Items = nil
		r.printItems("occurrence", im.Items, sum, a.Details.Problems)
	} else {
		io.WriteString(r.out, a.Text)
		for _, p := range a.Details.Problems {
			fmt.Fprintln(r.stderr, "evgrep:", p)
		}
	}
	if im == nil || im.Occurrences == 0 {
		return exitNoMatch
	}
	return exitMatch
}

// printNav prints a navigation answer: its text, or with --json one
// object per link then a summary. Exit 1 when it found nothing.
func (r *run) printNav(a *agent.Answer, nav *agent.NavJSON) int {
	if r.cfg.JSON {
		sum := *nav
		sum.Items = nil
		r.printItems("link", nav.Items, sum, a.Details.Problems)
	} else {
		io.WriteString(r.out, a.Text)
	}
	if len(nav.Items) == 0 {
		return exitNoMatch
	}
	return exitMatch
}

// printItems writes an analysis's --json form: one line per item, of type
// kind, then the summary with the problems.
func (r *run) printItems(kind string, items []agent.ItemJSON, summary any, problems []string) {
	for _, it := range items {
		r.out.Write(jsonLine(nil, analysisLine{Type: kind, Data: it}))
	}
	r.out.Write(jsonLine(nil, analysisLine{Type: "summary", Data: summary, Problems: problems}))
}

// analysisLine is one line of an analysis's --json output.
type analysisLine struct {
	Type     string   `json:"type"`
	Data     any      `json:"data"`
	Problems []string `json:"problems,omitempty"`
}
