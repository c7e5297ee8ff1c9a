// Command evgrep searches source trees like ripgrep and answers coding
// agents with bounded evidence. All logic lives in internal/app.
package main

import (
	"os"

	"github.com/evgrep/evgrep/internal/app"
	"github.com/evgrep/evgrep/internal/startpages"
	// The main goroutine's stack, grown before the package inits
	// (internal/stackhint).
	_ "github.com/evgrep/evgrep/internal/stackhint"
	// The timer slack of every thread (internal/timerslack).
	_ "github.com/evgrep/evgrep/internal/timerslack"
	// An agent call's credential policy, computed beside the package
	// inits (internal/agentstart).
	_ "github.com/evgrep/evgrep/internal/agentstart"

	// Start-up's drop points (internal/startpages/stages).
	_ "github.com/evgrep/evgrep/internal/startpages/stages/afterfmt"
	_ "github.com/evgrep/evgrep/internal/startpages/stages/afterjson"
	_ "github.com/evgrep/evgrep/internal/startpages/stages/afterstructural"
)

func main() {
	// Start-up's pages of the executable are given back before the run
	// (internal/startpages), as at each stage of package initialisation:
	// the peak RSS is the largest stage's or the search's.
	startpages.Drop()
	os.Exit(app.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
