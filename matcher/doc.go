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
//     patterns mixing raw-byte (?-u) classes with Unicode ones, counted
//     repetitions above RE2's limit of 1000, and programs too big for RE2.
//
// A literal prefilter scans buffers for a rare byte of a literal every match
// must contain, and only the enclosing line is confirmed. Without a useful
// literal, RE2 scans chunks of many lines per call. A large alternation of
// plain literals (-f with many words) skips both engines: a multi-literal
// automaton (internal/litset) gives rg's leftmost-first occurrences.
//
// Patterns are sized the way rg 15 sizes them (nfasize.go): those whose
// compiled NFA rg would count above --regex-size-limit fail with its
// "compiled regex exceeds size limit" error, and programs too big for
// RE2's DFA (which would log to stderr) are left to the VM.
//
// Known differences from rg 13 (whose regex 1.5 engine mixes DFA and NFA
// answers in a few corners):
//
//   - Repetitions of sub-patterns that can match empty, or nested
//     repetitions, e.g. (?:\b|a)+ or ((?:.)+)+: rg's DFA sometimes picks a
//     different leftmost-first match end than its NFA; evgrep follows the
//     NFA (Pike VM) priorities. Whether a line matches is unaffected.
//   - Unicode \b and \B next to non-ASCII text, after the first match in
//     a line: rg combines a DFA that judges bytes as ASCII with an NFA that
//     steps by characters; evgrep models the common cases only.
//   - (?-u:\b) directly followed by ^ never matches in rg's DFA; evgrep
//     matches it.
//   - \A and \z are judged per line by IsMatch/NextLine (as rg's line
//     confirmation does); OccurrencesIn applies \A to the buffer start.
//   - --no-unicode with a (?u) part that yields non-ASCII characters is
//     rejected like rg, but the caret points at the pattern start (rg shows
//     its internal rewritten pattern).
//   - Unicode tables are Go's (Unicode 15), rg 13's are Unicode 14; script
//     extensions (scx=) use the script tables; a few 4-letter script codes
//     are known.
//
// The package never touches the filesystem and knows nothing of flags or
// printing beyond Options.
package matcher
