// Command evgrep searches source trees like ripgrep 13 and answers coding
// agents with bounded evidence. All logic lives in internal/app.
package main

import (
	"os"

	"github.com/evgrep/evgrep/internal/app"
)

func main() {
	os.Exit(app.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
