package agentstart

import "testing"

// TestAgentCall: the spellings of an agent call and of an MCP server are
// found anywhere before "--", and nothing else is.
func TestAgentCall(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"--agent", `{"pattern":"x"}`}, true},
		{[]string{"--agent=-"}, true},
		{[]string{"--agent-format", "json", "--agent", "-"}, true},
		{[]string{"--mcp"}, true},
		{[]string{"--mcp-http", ":8080"}, true},
		{[]string{"--mcp-http=:8080"}, true},
		{[]string{"-n", "pattern", "."}, false},
		{[]string{"--agent-format", "json"}, false},
		{[]string{"--", "--agent"}, false},
		{[]string{"-e", "--agents"}, false},
		{nil, false},
	} {
		if got := AgentCall(tc.args); got != tc.want {
			t.Errorf("AgentCall(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
