package app

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/evgrep/evgrep/internal/agent"
)

// analysis implements --impact FILE:LINE and --impact-symbol NAME [PATH]:
// the agent's analysis answered whole (every item, no cursor), as text or,
// with --json, one JSON object per item then a summary object. Exit codes
// as a search: 0 with items, 1 without, 2 on an error.
func (r *run) analysis() int {
	cfg := r.cfg
	cwd, _ := os.Getwd()
	req := &agent.Request{Mode: agent.ModeImpact, Glob: cfg.Args.Values("glob")}
	hidden := cfg.Args.Has("hidden")
	req.Hidden = &hidden
	if cfg.Args.Has("parse-budget") {
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
	a := agent.HandleFull(req, agent.Env{Cwd: cwd})
	if a.Failed {
		msg := a.Text
		if e := a.Details.Error; e != nil {
			msg = e.Message
		}
		fmt.Fprintln(r.stderr, "evgrep:", strings.TrimSpace(msg))
		return exitError
	}
	im := a.Details.Impact
	if cfg.Args.Has("json") && im != nil {
		enc := json.NewEncoder(r.out)
		enc.SetEscapeHTML(false)
		for _, it := range im.Items {
			enc.Encode(analysisLine{Type: "occurrence", Data: it})
		}
		sum := *im
		sum.Items = nil
		enc.Encode(analysisLine{Type: "summary", Data: sum, Problems: a.Details.Problems})
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

// analysisLine is one line of an analysis's --json output.
type analysisLine struct {
	Type     string   `json:"type"`
	Data     any      `json:"data"`
	Problems []string `json:"problems,omitempty"`
}
