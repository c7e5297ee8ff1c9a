// Package matcher compiles ripgrep 15.2's regex dialect (Rust's regex
// crate 1.11 on regex-syntax 0.8) and finds matching lines and exact
// occurrences.
//
// As rg 15 does, each pattern is wrapped in (?:...) and the wrapped
// patterns are joined with '|' before parsing (rg15.go), so flags and
// unbalanced groups stay inside their pattern and errors show the joined
// text; -x and -w are applied to the parsed expression, -w as
// \b{start-half}(?:pat)\b{end-half}. Patterns are parsed by a port of the
// Rust grammar (so errors read like rg's), translated with Unicode-aware
// \w, \d, \s and word boundaries (\b, \B, \<, \>, \b{start}, \b{end},
// \b{start-half}, \b{end-half}), case folding and line-terminator rules
// applied, then run on two engines:
//
//   - RE2 (github.com/wasilibs/go-re2) confirms candidate lines and, when
//     its semantics are provably the same as Rust's for the input, lists
//     occurrences. It is handed a rendering of the translated pattern in
//     which every class is spelled out, so \w is Unicode-aware.
//   - A byte-level Pike VM gives Rust's exact answers where RE2 cannot:
//     Unicode word boundaries next to non-ASCII text, the special and half
//     word boundaries (so -w occurrences; whether a line matches -w is
//     still RE2's, as (?:^|\W)(?:pat)(?:\W|$)), empty matches inside
//     multi-byte characters,
//     patterns mixing raw-byte (?-u) classes with Unicode ones, counted
//     repetitions above RE2's limit of 1000, and programs too big for RE2.
//
// Whether a line matches, and which line of a buffer matches first, is
// answered for patterns without assertions other than ^ and $ (no word
// boundaries, \A or \z; anchors only on '\n' lines without CRLF) that
// cannot match empty by a lazy DFA built from the VM's program
// (dfa.go): exact, bounded per goroutine, and it steps aside for RE2 and
// the VM when its cache thrashes; RE2 is then compiled only when asked
// for (occurrences, or the DFA gave up).
//
// A literal prefilter scans buffers for a rare byte of a literal every match
// must contain, and only the enclosing line is confirmed. Without a useful
// literal, the DFA or RE2 scans many lines per call. A large alternation of
// plain literals (-f with many words) skips both engines: a multi-literal
// automaton (internal/litset) gives rg's leftmost-first occurrences.
//
// Patterns are sized the way rg 15 sizes them (nfasize.go): those whose
// compiled NFA rg would count above --regex-size-limit fail with its
// "compiled regex exceeds size limit" error, and programs too big for
// RE2's DFA (which would log to stderr) are left to the VM.
//
// Unicode properties (\p{...}: general categories, scripts, script
// extensions, Age, Grapheme_Cluster_Break, Word_Break, Sentence_Break and
// the binary properties rg accepts, with its loose name matching), \w, \d,
// \s, simple case folding and smart case's uppercase test use tables that
// internal/ucdgen generates from the Unicode Character Database 16.0.0, the
// version of rg 15.2 (ucd_tables.go; about 90 KB of range data). With
// binary detection on (Options.BanNUL) a NUL literal is an error, as rg 15
// says "pattern contains \"\0\" but it is impossible to match".
//
// Known differences (some from rg 13's regex 1.5, which mixed DFA and NFA
// answers in a few corners, not yet rechecked against rg 15):
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
//   - Unicode \b and \B keep the rg 13 modelling above (wbQuirk); the
//     special and half boundaries follow regex 1.11 exactly (no match next
//     to invalid UTF-8 for \B and the half boundaries).
//   - The parser's (?x) whitespace and the group-name letters use Go's
//     Unicode 15.0 tables.
//
// The package never touches the filesystem and knows nothing of flags or
// printing beyond Options.
package matcher
