package snapshot

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"maps"
	"slices"
	"sort"
	"time"
)

// Analysis is the kind of work a snapshot holds. A cursor's page is
// chosen by it (with the cursor's Kind), never by an option string.
type Analysis uint8

// The analyses. The zero value is a search (match lines), which every
// snapshot of the formats before Analysis was stored holds.
const (
	// AnalysisSearch holds the match lines of a pattern search.
	AnalysisSearch Analysis = iota
	// AnalysisTerms holds the occurrences of a multi-term search.
	AnalysisTerms
	// AnalysisRank holds ranked chunks.
	AnalysisRank
	// AnalysisImpact holds the occurrences of a symbol.
	AnalysisImpact
	// AnalysisImports holds the import links of a file.
	AnalysisImports
	// AnalysisTests holds the tests of a file.
	AnalysisTests
	// AnalysisStructural holds structural (ast-grep pattern) matches.
	AnalysisStructural
	// AnalysisOutline holds the rest of an outline (its file list).
	AnalysisOutline
	// AnalysisSource holds the rest of a range of source lines (inspect).
	AnalysisSource
	analysisEnd
)

var analysisNames = [...]string{
	AnalysisSearch: "search", AnalysisTerms: "terms", AnalysisRank: "rank",
	AnalysisImpact: "impact", AnalysisImports: "imports", AnalysisTests: "tests",
	AnalysisStructural: "structural", AnalysisOutline: "outline", AnalysisSource: "source",
}

// String returns the analysis's name (a mode name where there is one).
func (a Analysis) String() string {
	if a < analysisEnd {
		return analysisNames[a]
	}
	return "unknown"
}

// Valid reports whether a is one of the analyses.
func (a Analysis) Valid() bool { return a < analysisEnd }

// Meta describes the search a snapshot holds.
type Meta struct {
	// Root is the absolute, symlink-resolved root of the search (see
	// NormalizeRoot).
	Root string
	// Analysis is what the snapshot holds.
	Analysis Analysis
	// Options are the normalized scalar request options that define the
	// search (pattern, literal, ignoreCase…), each encoded by the caller
	// as a string. Options that only shape the answer (limit, mode,
	// context) do not belong here.
	Options map[string]string
	// Lists are the options that are lists of strings (globs, paths,
	// terms, the files an outline has left), kept as lists.
	Lists map[string][]string
	// Numbers are the analysis's own numeric state (counts per term, a
	// range of lines), kept as numbers.
	Numbers map[string][]int64
	// Created is when the search ran.
	Created time.Time
}

// clone returns m with maps and lists of its own.
func (m Meta) clone() Meta {
	c := m
	c.Options, c.Lists, c.Numbers = nil, nil, nil
	if len(m.Options) > 0 {
		c.Options = maps.Clone(m.Options)
	}
	if len(m.Lists) > 0 {
		c.Lists = make(map[string][]string, len(m.Lists))
		for k, v := range m.Lists {
			c.Lists[k] = slices.Clone(v)
		}
	}
	if len(m.Numbers) > 0 {
		c.Numbers = make(map[string][]int64, len(m.Numbers))
		for k, v := range m.Numbers {
			c.Numbers[k] = slices.Clone(v)
		}
	}
	return c
}

// Fingerprint returns the fingerprint of the search: 32 hex digits of a
// SHA-256 over the analysis and the sorted, length-prefixed options,
// lists and numbers. Equal metas give equal fingerprints in every
// process and version.
func (m Meta) Fingerprint() string {
	h := sha256.New()
	writeOptions(h, m.Options)
	if m.Analysis != AnalysisSearch || len(m.Lists) > 0 || len(m.Numbers) > 0 {
		var n [binary.MaxVarintLen64]byte
		h.Write([]byte{0xff, byte(m.Analysis)})
		for _, k := range sortedKeys(m.Lists) {
			putString(h, k)
			h.Write(n[:binary.PutUvarint(n[:], uint64(len(m.Lists[k])))])
			for _, v := range m.Lists[k] {
				putString(h, v)
			}
		}
		h.Write([]byte{0xfe})
		for _, k := range sortedKeys(m.Numbers) {
			putString(h, k)
			h.Write(n[:binary.PutUvarint(n[:], uint64(len(m.Numbers[k])))])
			for _, v := range m.Numbers[k] {
				h.Write(n[:binary.PutVarint(n[:], v)])
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// Fingerprint returns a stable fingerprint of an options map: 32 hex digits
// of a SHA-256 over the sorted, length-prefixed keys and values. Equal maps
// give equal fingerprints in every process and version (a Meta of a
// search with only these options has the same).
func Fingerprint(opts map[string]string) string {
	h := sha256.New()
	writeOptions(h, opts)
	return hex.EncodeToString(h.Sum(nil)[:16])
}

func writeOptions(h hash.Hash, opts map[string]string) {
	for _, k := range sortedKeys(opts) {
		putString(h, k)
		putString(h, opts[k])
	}
}

func putString(h hash.Hash, s string) {
	var n [binary.MaxVarintLen64]byte
	h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
	h.Write([]byte(s))
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
