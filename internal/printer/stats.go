package printer

import (
	"fmt"
	"io"
	"time"
)

// Stats are rg's aggregate search statistics.
type Stats struct {
	Elapsed           time.Duration
	Searches          uint64
	SearchesWithMatch uint64
	BytesSearched     uint64
	BytesPrinted      uint64
	MatchedLines      uint64
	Matches           uint64
}

// Add accumulates o into s.
func (s *Stats) Add(o *Stats) {
	s.Elapsed += o.Elapsed
	s.Searches += o.Searches
	s.SearchesWithMatch += o.SearchesWithMatch
	s.BytesSearched += o.BytesSearched
	s.BytesPrinted += o.BytesPrinted
	s.MatchedLines += o.MatchedLines
	s.Matches += o.Matches
}

// fractional renders seconds the way rg does ("{:0.6}").
func fractional(d time.Duration) string {
	return fmt.Sprintf("%0.6f", d.Seconds())
}

// WriteStats prints --stats in rg 15's text form.
func WriteStats(w io.Writer, s *Stats, total time.Duration) error {
	_, err := fmt.Fprintf(w, "\n%d matches\n%d matched lines\n%d files contained matches\n%d files searched\n%d bytes printed\n%d bytes searched\n%s seconds spent searching\n%s seconds total\n",
		s.Matches, s.MatchedLines, s.SearchesWithMatch, s.Searches, s.BytesPrinted, s.BytesSearched, fractional(s.Elapsed), fractional(total))
	return err
}

// WriteJSONSummary prints the final "summary" message of --json.
func WriteJSONSummary(w io.Writer, s *Stats, total time.Duration) error {
	_, err := fmt.Fprintf(w, `{"data":{"elapsed_total":{"human":"%ss","nanos":%d,"secs":%d},"stats":{"bytes_printed":%d,"bytes_searched":%d,"elapsed":{"human":"%ss","nanos":%d,"secs":%d},"matched_lines":%d,"matches":%d,"searches":%d,"searches_with_match":%d}},"type":"summary"}`+"\n",
		fractional(total), total.Nanoseconds()%1e9, int64(total.Seconds()),
		s.BytesPrinted, s.BytesSearched, fractional(s.Elapsed), s.Elapsed.Nanoseconds()%1e9, int64(s.Elapsed.Seconds()),
		s.MatchedLines, s.Matches, s.Searches, s.SearchesWithMatch)
	return err
}
