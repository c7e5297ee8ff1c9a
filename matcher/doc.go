// Package matcher compiles ripgrep 13's regex dialect (Rust's regex crate
// syntax and semantics) and finds matching lines and exact occurrences.
//
// Patterns are parsed by a port of the Rust grammar (so errors read like
// rg's), translated with Unicode-aware \w, \d, \s and \b, case folding and
// line-terminator rules applied, then run on two engines:
//
//   - RE2 (github.com/wasilibs/go-re2) confirms candidate lines and, when
//     its semantics are provably the same as Rust's for the input, lists
//     occurrences. It is handed a rendering of the translated pattern in
//     which every class is spelled out, so \w is Unicode-aware.
//   - A byte-level Pike VM gives Rust's exact answers where RE2 cannot:
//     Unicode word boundaries next to non-ASCII text, -w occurrences (rg's
//     capture-group rule), empty matches inside multi-byte characters,
//     patterns mixing raw-byte (?-u) classes with Unicode ones, and counted
//     repetitions above RE2's limit of 1000.
//
// A literal prefilter scans buffers for a rare byte of a literal every match
// must contain, and only the enclosing line is confirmed. Without a useful
// literal, RE2 scans chunks of many lines per call.
//
// The package never touches the filesystem and knows nothing of flags or
// printing beyond Options.
package matcher
