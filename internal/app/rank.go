package app

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/evgrep/evgrep/internal/rankindex"
	"github.com/evgrep/evgrep/rank"
	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/walker"
)

// rankNote is the one line that says what a ranking is.
const rankNote = "# a ranking by lexical evidence (BM25 and code-aware priors), not proof of relevance"

// rankDefaultHits is how many chunks --rank prints without -m.
const rankDefaultHits = 10

// rankGCPercent is the GC target of --rank unless GOGC is set, and
// rankMemoryLimit the soft heap bound that keeps it in check: building an
// index allocates many short-lived term lists, and at the search's target
// the collector took about a fifth of a cold query's CPU. A build holds a
// window of documents, not all of them (rankindex), so GOROOT/src's live
// heap stays under the bound: at 1 GiB the garbage took its peak RSS to
// 780 MB, at 256 MiB it peaks under 300 MB for about a fifth more CPU.
const (
	rankGCPercent   = 400
	rankMemoryLimit = 256 << 20
)

// rankPreviewLines is how many of a chunk's first lines the text form shows.
const rankPreviewLines = 3

// rank implements --rank QUERY [PATH...]: the best chunks for the query,
// as text or, with --json, one JSON object per chunk, best first. The
// index comes from the state folder's cache, refreshed for changed files.
func (r *run) rank(wopts walker.Options) int {
	query := r.cfg.Query
	if strings.TrimSpace(query) == "" {
		errorLine(r.stderr, "--rank needs a non-empty query")
		return exitError
	}
	if len(query) > rank.MaxQueryBytes {
		errorLine(r.stderr, fmt.Sprintf("--rank query over %d bytes", rank.MaxQueryBytes))
		return exitError
	}
	limit := rankDefaultHits
	if m := r.cfg.Printer.MaxCount; m > 0 {
		limit = int(min(m, rank.MaxResults))
	}
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(rankGCPercent)
		debug.SetMemoryLimit(rankMemoryLimit)
	}
	cwd, _ := os.Getwd()
	wopts.SkipGitDir = true
	// The cached index is searched beside the walk; when Load finds every
	// file unchanged it returns that index, and those hits are the answer.
	var early earlySearch
	ix, _, err := rankindex.Load(context.Background(), rankindex.Options{
		Root: cwd, Roots: r.cfg.Paths, Walk: wopts,
		Input: r.cfg.Pipeline.Input,
		Store: snapshot.NewStore(snapshot.DefaultStateDir()),
		Early: func(ix *rank.Index) { early.start(ix, query, limit) },
	})
	if err != nil {
		errorLine(r.stderr, err)
		return exitError
	}
	hits, ok := early.hits(ix)
	if !ok {
		hits = ix.Search(query, &rank.Default, limit)
	}
	jsonOut := r.cfg.JSON
	if !jsonOut {
		fmt.Fprintln(r.out, rankNote)
	}
	for _, h := range hits {
		src, err := rankindex.Source(cwd, h, r.cfg.Pipeline.Input)
		// The name comes from the index (maybe its cache): shown only when
		// the verified source declares it.
		h.Chunk.Name = rankindex.VerifiedName(src, h.Chunk.Name)
		if jsonOut {
			o := rankLine{Path: h.Path, StartLine: h.Chunk.StartLine, EndLine: h.Chunk.EndLine,
				Score: round3(h.Score), Kind: h.Chunk.Kind, Name: h.Chunk.Name}
			if err != nil {
				o.Error = err.Error()
			}
			r.out.Write(jsonLine(nil, o))
			continue
		}
		label := h.Chunk.Kind
		if h.Chunk.Name != "" {
			label += " " + h.Chunk.Name
		}
		fmt.Fprintf(r.out, "%s:%d-%d  score %s  %s\n", h.Path, h.Chunk.StartLine, h.Chunk.EndLine, strconv.FormatFloat(round3(h.Score), 'f', 3, 64), label)
		if err != nil {
			fmt.Fprintf(r.out, "    (%v)\n", err)
			continue
		}
		lines := strings.SplitN(string(src), "\n", rankPreviewLines+1)
		for i, l := range lines {
			if i == rankPreviewLines {
				break
			}
			if i == len(lines)-1 && l == "" {
				break
			}
			fmt.Fprintf(r.out, "    %d: %s\n", h.Chunk.StartLine+i, clip(l, 200))
		}
	}
	if r.errored.Load() {
		return exitError
	}
	if len(hits) == 0 {
		return exitNoMatch
	}
	return exitMatch
}

// earlySearch is a search of the cached index begun before Load was
// done with it (rankindex.Options.Early).
type earlySearch struct {
	ix   atomic.Pointer[rank.Index]
	done chan struct{}
	out  []rank.Hit
}

// start searches ix in a goroutine of its own.
func (e *earlySearch) start(ix *rank.Index, query string, limit int) {
	e.done = make(chan struct{})
	e.ix.Store(ix)
	go func() {
		defer close(e.done)
		e.out = ix.Search(query, &rank.Default, limit)
	}()
}

// hits are the early search's hits when it searched ix itself.
func (e *earlySearch) hits(ix *rank.Index) ([]rank.Hit, bool) {
	if p := e.ix.Load(); p == nil || p != ix {
		return nil, false
	}
	<-e.done
	return e.out, true
}

func round3(f float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', 3, 64), 64)
	return v
}

// clip cuts s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// rankLine is one ranked chunk of --rank --json (fields in the order
// they have always been written).
type rankLine struct {
	EndLine   int     `json:"endLine"`
	Error     string  `json:"error,omitempty"`
	Kind      string  `json:"kind"`
	Name      string  `json:"name,omitempty"`
	Path      string  `json:"path"`
	Score     float64 `json:"score"`
	StartLine int     `json:"startLine"`
}
