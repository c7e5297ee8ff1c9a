// Package agentstart starts, while the program initialises, the work that
// every agent call needs before its first file: the credential policy
// (internal/credpolicy). Package initialisation runs on one core; the
// policy's few hundred lstat calls then run on the other instead of after
// it.
//
// It looks at the command line itself, before any flag is parsed, so its
// answer is a guess that only decides when the policy is computed: a
// process it takes for an agent call that is not one computes a policy it
// does not use, and one it misses computes the policy at its first file,
// as without this package. cmd/evgrep imports it; it imports nothing of
// evgrep's but credpolicy, so that it is initialised among the first
// packages.
package agentstart

import (
	"os"
	"strings"

	"github.com/evgrep/evgrep/internal/credpolicy"
)

func init() {
	if AgentCall(os.Args[1:]) {
		credpolicy.Start()
	}
}

// AgentCall reports whether command-line arguments args (the program's
// name left out) ask for an agent call or an MCP server: --agent,
// --agent=REQUEST, --mcp or --mcp-http before any "--".
func AgentCall(args []string) bool {
	for _, a := range args {
		switch {
		case a == "--":
			return false
		case a == "--agent", a == "--mcp", a == "--mcp-http",
			strings.HasPrefix(a, "--agent="), strings.HasPrefix(a, "--mcp-http="):
			return true
		}
	}
	return false
}
