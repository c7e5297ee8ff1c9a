// Command evgrep searches source trees like ripgrep 13 and answers coding
// agents with bounded evidence. All logic lives in internal/app.
package main

import (
	"os"

	"github.com/evgrep/evgrep/internal/app"
	"github.com/evgrep/evgrep/internal/startpages"
)

func main() {
	// Start-up's pages of the executable are given back before the run
	// (internal/startpages): the peak RSS is start-up's or the search's.
	startpages.Drop()
	os.Exit(app.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
