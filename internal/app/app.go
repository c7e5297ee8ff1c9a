// Package app is the glue between the command line and the engine packages:
// it parses rg-compatible flags, runs the search pipeline and maps errors to
// rg's exit codes.
package app

import (
	"fmt"
	"io"
	"os"
)

// Main runs evgrep with args (without the program name) and returns the exit
// code: 0 when something matched, 1 when nothing did, 2 on error.
func Main(args []string, stdin *os.File, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "evgrep: not implemented yet")
	return 2
}
