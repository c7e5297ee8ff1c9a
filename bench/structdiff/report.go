package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// tally counts identical answers of one kind of case.
type tally struct{ same, total int }

func (t tally) String() string {
	if t.total == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d", t.same, t.total)
}

// report prints the agreement per language and every differing case, and
// fails when a difference is not listed in DIFFERENCES or a listed case
// no longer differs (partial: only some cases ran, so listed cases that
// did not run are not stale).
func report(w io.Writer, results []result, listed map[string]string, partial bool) error {
	type row struct{ patterns, rules, rewrites tally }
	byLang := map[string]*row{}
	var all row
	for _, r := range results {
		x := byLang[r.c.lang]
		if x == nil {
			x = &row{}
			byLang[r.c.lang] = x
		}
		for _, t := range []*row{x, &all} {
			k := &t.patterns
			if r.c.rule {
				k = &t.rules
			} else if r.c.rewrite {
				k = &t.rewrites
			}
			k.total++
			if r.same {
				k.same++
			}
		}
	}
	fmt.Fprintf(w, "%-12s %-10s %-10s %-10s\n", "language", "patterns", "rules", "rewrites")
	for _, l := range sortedKeys(byLang) {
		fmt.Fprintf(w, "%-12s %-10s %-10s %-10s\n", l, byLang[l].patterns, byLang[l].rules, byLang[l].rewrites)
	}
	same, total := all.patterns.same+all.rules.same, all.patterns.total+all.rules.total
	pct := 0.0
	if total > 0 {
		pct = 100 * float64(same) / float64(total)
	}
	fmt.Fprintf(w, "%-12s %-10s %-10s %-10s identical match sets: %d/%d (%.1f%%); byte-identical rewrites: %s\n",
		"all", all.patterns, all.rules, all.rewrites, same, total, pct, all.rewrites)

	var problems []string
	ran := map[string]bool{}
	var differing []result
	for _, r := range results {
		ran[r.c.key()] = true
		if !r.same {
			differing = append(differing, r)
		}
	}
	sort.Slice(differing, func(i, j int) bool { return differing[i].c.key() < differing[j].c.key() })
	if len(differing) > 0 {
		fmt.Fprintf(w, "\n%d differing (evgrep / ast-grep matches; only-evgrep / only-ast-grep when recorded):\n", len(differing))
	}
	for _, r := range differing {
		detail := ""
		if r.evErr != "" {
			detail = "  evgrep: " + firstLine(r.evErr)
		}
		if r.agErr != "" {
			detail += "  ast-grep: " + r.agErr
		}
		if r.onlyEv >= 0 {
			detail = fmt.Sprintf("  only evgrep %d, only ast-grep %d", r.onlyEv, r.onlyAg)
			if r.firstEv != "" {
				detail += "  e.g. +" + r.firstEv
			}
			if r.firstAg != "" {
				detail += "  e.g. -" + r.firstAg
			}
		}
		reason, ok := listed[r.c.key()]
		if !ok {
			reason = "NOT LISTED in DIFFERENCES"
			problems = append(problems, "unlisted difference: "+show(r.c.key()))
		}
		fmt.Fprintf(w, "  %s: %d / %d%s\n      %s\n", show(r.c.key()), r.evgrep, r.astgrep, detail, reason)
	}
	for _, k := range sortedKeys(listed) {
		if !ran[k] {
			if !partial {
				problems = append(problems, "listed in DIFFERENCES but not a case: "+show(k))
			}
			continue
		}
		for _, r := range results {
			if r.c.key() == k && r.same {
				problems = append(problems, "listed in DIFFERENCES but now identical (remove it): "+show(k))
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("\n  %s", strings.Join(problems, "\n  "))
	}
	return nil
}

// show renders a case key on one line.
func show(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "\t", " "), "\n", `\n`)
}
