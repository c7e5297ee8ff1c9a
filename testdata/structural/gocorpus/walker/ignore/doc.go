// Package ignore is evgrep's glob and gitignore pattern engine. It
// reproduces the pattern semantics of ripgrep 15.2, i.e. of the globset and
// ignore crates it is built on, rather than git's fnmatch where the two
// differ:
//
//   - globs accept {a,b} alternation, nested ({a,{b,c}}), in .gitignore
//     lines, -g globs and type globs alike; a '}' with no '{' is an error;
//   - in an ignore file an unclosed '[' is a literal ("[abc" ignores a
//     file named "[abc"), in a -g or type glob it is an error;
//   - matching is byte-wise: '?' and a class such as [é] each match exactly
//     one byte, so '?' does not match a two-byte UTF-8 character;
//   - case-insensitive matching folds ASCII letters only;
//   - a path whose last component is "." or ".." is never matched by a glob
//     that globset answers from the basename or the extension alone
//     (ripgrep 13 had this for every name ending in '.');
//   - a class may match '/' (the .gitignore line "a[!x]b" ignores "a/b");
//   - a .gitignore line "!" whitelists everything;
//   - alternates nested so deeply that ripgrep's regular expression parser
//     refuses them make the whole set fail (a *NestError).
//
// CompileGlob compiles one glob; NewGitignore compiles the lines of one
// ignore file (.gitignore, .ignore, .rgignore, .git/info/exclude, a global
// excludes file or an --ignore-file); NewOverride compiles the -g/--iglob
// globs. Matching picks the cheapest strategy globset would pick (whole-path
// literal, basename literal, extension, prefix, suffix) and otherwise runs a
// byte automaton compiled from the glob: a DFA when it stays small, else a
// bitset position automaton, and Go's regexp only for a glob too large for
// either. Match calls do not allocate (except, on a non-ASCII path, for a
// glob that fell back to Go's regexp). All matchers are immutable once
// built and safe for concurrent use.
//
// This package replaces the gitignore matcher of
// github.com/boyter/gocodewalker, which has known bugs: some negation
// cases are wrong (a "/*/" line followed by "!/keep/" does not bring keep/
// back), and a malformed line such as "[中" makes it panic. Here a line that
// fails to compile is skipped and reported with rg's wording, and no input
// causes a panic (see the fuzz targets).
package ignore
