package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/evgrep/evgrep/snapshot"
)

// inspectNumbers returns the first match numbers of a page, for the
// suggested inspect call.
func inspectNumbers(ms []MatchJSON) []int {
	var out []int
	for _, m := range ms {
		if len(out) == nextInspect {
			break
		}
		out = append(out, m.Match)
	}
	return out
}

func matchList(n []int) string {
	parts := make([]string, len(n))
	for i, x := range n {
		parts[i] = fmt.Sprintf("#%d", x)
	}
	return "match " + strings.Join(parts, ", ")
}

// inspectable reports whether the match numbers of snap can be inspected:
// not those of a search of a Git commit's files (inspect reads the working
// files, which are not the lines the search numbered).
func inspectable(snap *snapshot.Snapshot) bool { return snap.Meta.Options["rev"] == "" }

// addNext appends a suggested call.
func addNext(d *Details, r Request, why string) {
	d.Next = append(d.Next, NextCall{Request: r, Why: why})
}

// nextSearch is the exact request of a new search with the options of
// snap's search, limited to paths (when given), for its match lines.
func nextSearch(snap *snapshot.Snapshot, paths []string, v view) Request {
	r := requestOf(snap)
	if len(paths) > 0 {
		r.Paths = paths
	}
	r.Mode = ModeMatches
	if v.limit != defaultLimit {
		n := v.limit
		r.Limit = &n
	}
	if v.context > 0 {
		c := v.context
		r.Context = &c
	}
	return r
}

// echoable reports whether a new search of path with snap's options can be
// suggested whole: its pattern, root and path are short enough to echo.
func echoable(snap *snapshot.Snapshot, path string) bool {
	return jsonCost(path)-2 <= maxEchoBytes && jsonCost(snap.Meta.Root)-2 <= maxEchoBytes && jsonCost(snap.Meta.Options["pattern"])-2 <= maxEchoBytes
}

// requestJSON renders a request as the exact JSON object to send.
func requestJSON(r Request) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(r)
	return strings.TrimSuffix(b.String(), "\n")
}

// writeNext writes the suggested calls, each an exact request.
func writeNext(b *strings.Builder, d *Details) {
	if len(d.Next) == 0 {
		return
	}
	b.WriteString("Next calls (exact requests):\n")
	for _, n := range d.Next {
		fmt.Fprintf(b, "  %s  — %s\n", requestJSON(n.Request), n.Why)
	}
}
