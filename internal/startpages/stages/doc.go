// Package stages holds the drop points of start-up (internal/startpages):
// packages that do nothing but call startpages.Drop from their init
// function, each importing the packages it must come after. Go initialises
// packages in import-path order, each as soon as everything it imports is
// initialised (the language specification, "Package initialization"), and
// these sort before the third-party and most standard packages, so each
// drop runs right after its anchors, part-way through start-up:
//
//   - afterfmt: fmt (about 40 of 190 initialised packages: the runtime
//     and the first standard packages; startpages itself imports only
//     standard packages initialised before it, so that this one comes
//     early)
//   - afterjson: encoding/json (about 105)
//   - afterstructural: the structural search, with tree-sitter's grammars
//     and YAML (about 155)
//
// Each drop costs the faults of the pages touched again after it (35 to
// 75 minor faults on a tiny-tree search, by how the executable sits in the
// page cache). Measured on copies written as the benchmark writes them
// (bench/README.md, "Copies of the executables"), a tiny-tree search's
// peak 14.9 MB at main's drop alone, 11.8 MB with afterjson and
// afterstructural, 10.7 MB with afterfmt too (rg: 7.3 MB).
//
// cmd/evgrep imports all of them. TestStartupStages (internal/e2e) checks
// the order in the built binary's init trace.
package stages
