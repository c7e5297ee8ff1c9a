package printer

import (
	"encoding/base64"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/evgrep/evgrep/internal/search"
	"github.com/evgrep/evgrep/internal/textpos"
)

// JSON is rg's JSON Lines printer (begin, match, context, end messages;
// the final summary is written by the caller with WriteJSONSummary).
type JSON struct {
	w            out
	m            Matcher
	path         []byte
	pathJSON     []byte
	matches      []Range
	tmp          []byte              // one rendered piece
	u16          textpos.UTF16Cursor // UTF-16 columns of the line being written
	matchCount   int64
	beginPrinted bool
	start        time.Time
	stats        Stats
	// repl and replRngs hold the line with -r applied and where each
	// replacement is in it (the submatches' "replacement" fields).
	repl     []byte
	replRngs []Range
}

// NewJSON returns a JSON printer.
func NewJSON(opts *Options, m Matcher) *JSON {
	p := &JSON{m: m}
	p.w.opts = opts
	return p
}

// Reset prepares the printer for a search of path.
func (p *JSON) Reset(path string) {
	p.w.reset()
	p.path = []byte(path)
	p.pathJSON = appendData(p.pathJSON[:0], p.path)
	p.matchCount = 0
	p.beginPrinted = false
	p.start = time.Now()
	p.stats = Stats{}
}

// SetSpill hands the output to fn whenever more than SpillBytes of it
// are held, for a caller that may write a file's output before the search
// of that file is done (one search at a time); Bytes is then what is left.
// A nil fn holds the whole output.
func (p *JSON) SetSpill(fn func([]byte)) { p.w.buf.SetSpill(SpillBytes, fn) }

// Bytes returns the output of the last search.
func (p *JSON) Bytes() []byte { return p.w.buf.Bytes() }

// Stats returns the statistics of the last search.
func (p *JSON) Stats() *Stats { return &p.stats }

// MatchCount is the number of matches reported in the last search.
func (p *JSON) MatchCount() int64 { return p.matchCount }

func (p *JSON) writeBegin() {
	if p.beginPrinted {
		return
	}
	b := &p.w.buf
	b.WriteString(`{"type":"begin","data":{"path":`)
	b.Write(p.pathJSON)
	b.WriteString("}}\n")
	p.beginPrinted = true
}

// Matched implements search.Sink.
func (p *JSON) Matched(s *search.Searcher, m *search.Match) (bool, error) {
	p.writeBegin()
	p.matchCount++
	p.stats.MatchedLines += countLines(m.Bytes, s.Config().LineTerm)
	if !s.Config().Multiline {
		// One line: its submatches are written as they are found, so
		// that a huge line of millions of them lists none in memory.
		hayEnd := max(m.Start, trimTerm(s, m.Buffer[:m.Start+len(m.Bytes)]))
		p.replace(s, m.Buffer, m.Start, m.Start+len(m.Bytes), false)
		p.writeLineHead("match", m.Bytes, m.LineNumber, m.AbsOffset)
		var n uint64
		p.u16.Reset(m.Bytes)
		end := m.Start + len(m.Bytes)
		p.m.EachOccurrenceIn(m.Buffer, m.Start, hayEnd, func(r Range) bool {
			if pastLine(r, m.Start, hayEnd, end) {
				return true
			}
			if n > 0 {
				p.w.buf.WriteByte(',')
			}
			p.writeSubmatch(m.Bytes, r, int(n))
			n++
			return true
		})
		p.w.buf.WriteString("]}}\n")
		p.stats.Matches += n
		return true, nil
	}
	p.matches = findMatches(s, p.m, m.Buffer, m.Start, m.Start+len(m.Bytes), true, p.matches)
	p.stats.Matches += uint64(len(p.matches))
	p.replace(s, m.Buffer, m.Start, m.Start+len(m.Bytes), true)
	p.writeLineMessage("match", m.Bytes, m.LineNumber, m.AbsOffset, p.matches)
	return true, nil
}

// Context implements search.Sink.
func (p *JSON) Context(s *search.Searcher, c *search.Context) (bool, error) {
	p.writeBegin()
	p.matches = p.matches[:0]
	p.replRngs = p.replRngs[:0]
	if s.Config().Invert {
		// A multiline search keeps the terminator in the haystack, as for
		// matches (rg lists an `a\n` submatch of a context line).
		p.matches = findMatches(s, p.m, c.Bytes, 0, len(c.Bytes), true, p.matches)
		p.replace(s, c.Bytes, 0, len(c.Bytes), false)
	}
	p.writeLineMessage("context", c.Bytes, c.LineNumber, c.AbsOffset, p.matches)
	return true, nil
}

// ContextBreak implements search.Sink.
func (p *JSON) ContextBreak(*search.Searcher) (bool, error) { return true, nil }

// BinaryData implements search.Sink.
func (p *JSON) BinaryData(*search.Searcher, int64) (bool, error) { return true, nil }

// Finish implements search.Sink.
func (p *JSON) Finish(s *search.Searcher, f *search.Finish) error {
	// rg 15 counts every search in the summary, also those that printed
	// nothing (no begin or end message).
	p.stats.Elapsed = time.Since(p.start)
	p.stats.Searches = 1
	if p.matchCount > 0 {
		p.stats.SearchesWithMatch = 1
	}
	p.stats.BytesSearched = uint64(f.ByteCount)
	if !p.beginPrinted {
		return nil
	}
	p.stats.BytesPrinted = uint64(p.w.buf.Written())
	b := &p.w.buf
	b.WriteString(`{"type":"end","data":{"path":`)
	b.Write(p.pathJSON)
	b.WriteString(`,"binary_offset":`)
	if f.BinaryOffset >= 0 {
		b.WriteString(strconv.FormatInt(f.BinaryOffset, 10))
	} else {
		b.WriteString("null")
	}
	b.WriteString(`,"stats":`)
	st := &p.stats
	b.WriteString(`{"elapsed":`)
	writeDuration(b, st.Elapsed)
	b.WriteString(`,"searches":` + strconv.FormatUint(st.Searches, 10))
	b.WriteString(`,"searches_with_match":` + strconv.FormatUint(st.SearchesWithMatch, 10))
	b.WriteString(`,"bytes_searched":` + strconv.FormatUint(st.BytesSearched, 10))
	b.WriteString(`,"bytes_printed":` + strconv.FormatUint(st.BytesPrinted, 10))
	b.WriteString(`,"matched_lines":` + strconv.FormatUint(st.MatchedLines, 10))
	b.WriteString(`,"matches":` + strconv.FormatUint(st.Matches, 10))
	b.WriteString("}}}\n")
	return nil
}

// replace computes the replacements of -r for the submatches (rg 15's
// "replacement" field), over the same bytes as the standard printer.
func (p *JSON) replace(s *search.Searcher, buf []byte, start, end int, multi bool) {
	p.replRngs = p.replRngs[:0]
	if !p.w.opts.HasReplacement {
		return
	}
	hayEnd := min(len(buf), end+multilineLookAhead)
	if !s.Config().Multiline || !multi {
		hayEnd = max(start, trimTerm(s, buf[:end]))
	}
	p.repl, p.replRngs = p.m.Replace(p.repl[:0], buf[start:hayEnd], p.w.opts.Replacement, p.replRngs)
}

type byteWriter interface {
	WriteString(string) (int, error)
	Write([]byte) (int, error)
}

func writeDuration(b byteWriter, d time.Duration) {
	b.WriteString(`{"secs":` + strconv.FormatInt(int64(d/time.Second), 10))
	b.WriteString(`,"nanos":` + strconv.FormatInt(int64(d%time.Second), 10))
	b.WriteString(`,"human":"` + fractional(d) + `s"}`)
}

func (p *JSON) writeLineMessage(kind string, lines []byte, lineNo uint64, abs int64, matches []Range) {
	p.writeLineHead(kind, lines, lineNo, abs)
	p.u16.Reset(lines)
	for i, m := range matches {
		if i > 0 {
			p.w.buf.WriteByte(',')
		}
		p.writeSubmatch(lines, m, i)
	}
	p.w.buf.WriteString("]}}\n")
}

// writeLineHead writes a line message up to its submatches' '['.
func (p *JSON) writeLineHead(kind string, lines []byte, lineNo uint64, abs int64) {
	b := &p.w.buf
	b.WriteString(`{"type":"` + kind + `","data":{"path":`)
	b.Write(p.pathJSON)
	b.WriteString(`,"lines":`)
	p.writeData(lines)
	b.WriteString(`,"line_number":`)
	if lineNo > 0 {
		b.WriteString(strconv.FormatUint(lineNo, 10))
	} else {
		b.WriteString("null")
	}
	b.WriteString(`,"absolute_offset":` + strconv.FormatInt(abs, 10))
	b.WriteString(`,"submatches":[`)
}

// writeSubmatch writes the submatch m of lines, the i-th of its line
// (UTF-16 columns from p.u16, which must walk lines; its replacement from
// p.replRngs with -r, rg 15's "replacement").
func (p *JSON) writeSubmatch(lines []byte, m Range, i int) {
	b := &p.w.buf
	b.WriteString(`{"match":`)
	p.tmp = appendData(p.tmp[:0], lines[m.Start:m.End])
	b.Write(p.tmp)
	if p.w.opts.HasReplacement && i < len(p.replRngs) {
		r := p.replRngs[i]
		b.WriteString(`,"replacement":`)
		p.tmp = appendData(p.tmp[:0], p.repl[r.Start:r.End])
		b.Write(p.tmp)
	}
	p.tmp = append(append(append(p.tmp[:0], `,"start":`...), strconv.Itoa(m.Start)...), `,"end":`...)
	p.tmp = strconv.AppendInt(p.tmp, int64(m.End), 10)
	if p.w.opts.UTF16Columns {
		s16 := p.u16.At(m.Start)
		e16 := p.u16.At(m.End)
		p.tmp = strconv.AppendInt(append(p.tmp, `,"start_utf16":`...), int64(s16), 10)
		p.tmp = strconv.AppendInt(append(p.tmp, `,"end_utf16":`...), int64(e16), 10)
	}
	p.tmp = append(p.tmp, '}')
	b.Write(p.tmp)
}

// dataChunk is how much of a line writeData renders at a time.
const dataChunk = 64 << 10

// writeData writes appendData(b) piece by piece: a huge line is not
// rendered whole beside the output.
func (p *JSON) writeData(b []byte) {
	if len(b) <= dataChunk {
		p.tmp = appendData(p.tmp[:0], b)
		p.w.buf.Write(p.tmp)
		return
	}
	if utf8.Valid(b) {
		p.w.buf.WriteString(`{"text":"`)
		for i := 0; i < len(b); i += dataChunk {
			p.tmp = appendJSONEscaped(p.tmp[:0], b[i:min(len(b), i+dataChunk)])
			p.w.buf.Write(p.tmp)
		}
		p.w.buf.WriteString(`"}`)
		return
	}
	p.w.buf.WriteString(`{"bytes":"`)
	const step = dataChunk / 3 * 3 // whole base64 quanta
	for i := 0; i < len(b); i += step {
		p.tmp = base64.StdEncoding.AppendEncode(p.tmp[:0], b[i:min(len(b), i+step)])
		p.w.buf.Write(p.tmp)
	}
	p.w.buf.WriteString(`"}`)
}

// appendData renders {"text":"…"} for UTF-8 and {"bytes":"<base64>"} otherwise.
func appendData(dst, b []byte) []byte {
	if utf8.Valid(b) {
		dst = append(dst, `{"text":`...)
		dst = AppendJSONString(dst, b)
		return append(dst, '}')
	}
	dst = append(dst, `{"bytes":"`...)
	dst = base64.StdEncoding.AppendEncode(dst, b)
	return append(dst, `"}`...)
}

const hexDigits = "0123456789abcdef"

// AppendJSONString appends s as a JSON string escaped as serde_json does.
func AppendJSONString(dst, s []byte) []byte {
	dst = append(dst, '"')
	dst = appendJSONEscaped(dst, s)
	return append(dst, '"')
}

// appendJSONEscaped appends s escaped as in a JSON string, without quotes.
func appendJSONEscaped(dst, s []byte) []byte {
	for _, c := range s {
		switch c {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default:
			if c < 0x20 {
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
			} else {
				dst = append(dst, c)
			}
		}
	}
	return dst
}
