// Package stages holds the drop points of start-up (internal/startpages):
// packages that do nothing but call startpages.Drop from their init
// function, each importing the packages it must come after. Go initialises
// packages in import-path order, each as soon as everything it imports is
// initialised (the language specification, "Package initialization"), and
// these sort before the third-party and most standard packages, so each
// drop runs right after its anchors, part-way through start-up:
//
//   - afterjson: encoding/json (about 110 of 190 initialised packages:
//     the runtime and the standard packages everything needs)
//   - afterstructural: the structural search, with tree-sitter's grammars
//     and YAML (about 150)
//
// Each drop costs the faults of the pages touched again after it (about 75
// minor faults on a tiny-tree search): two stages took start-up's peak as
// low as four did (a tiny-tree search 12.7 -> 9.4 MB, --files over GOROOT
// 12.7 -> 10.0 MB) for half the faults.
//
// cmd/evgrep imports all of them. TestStartupStages (internal/e2e) checks
// the order in the built binary's init trace.
package stages
