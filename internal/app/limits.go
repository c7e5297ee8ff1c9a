package app

// The process's tuning, in one place.
const (
	// gcPercent is the GC target used unless GOGC is set. 50 saved about
	// 1 MB of peak RSS but ran 3-9 collections on a GOROOT search (0-2
	// at 200) and cost CPU: \wAh 340 -> 270 ms, --files 57 -> 44 ms of
	// CPU (medians of 5); peak RSS stays under rg's 2.5x.
	gcPercent = 200
	// structuralGCPercent is the GC target of --ast and --rule searches
	// unless GOGC is set: each parse leaves a file's node array as
	// garbage, and at 200 the heap grew to three times what was live.
	// Peak RSS at 100 against 200 (medians of 2-4 runs, CPU within
	// noise): GOROOT panic($A) 137.4 -> 123.7 MB, python-lib 33.5 ->
	// 29.9 MB, npm-js 33.8 -> 31.7 MB, c-headers 33.4 -> 31.9 MB.
	structuralGCPercent = 100
	// serverGCPercent is the GC target of the MCP server, whose live data
	// (snapshots) can be large and lives long.
	serverGCPercent = 50
	// agentMemoryLimit is the soft memory bound of one --agent call, which
	// runs at gcPercent: an agent call on GOROOT/src/net collected five
	// times at 50 (2 MB heap goal) and none at 200, for 62 -> 48 ms of CPU
	// and 14.3 -> 13.6 MB peak RSS (20 runs each); a call whose snapshot
	// is large is collected as it nears this bound.
	agentMemoryLimit = 256 << 20
	// stdoutBufferSize is the buffer in front of standard output.
	stdoutBufferSize = 64 << 10
	// termsJSONLine is the longest line text one --terms --json
	// occurrence object carries (a window of a longer line).
	termsJSONLine = 4 << 10
	// maxAgentRequest bounds the request `--agent -` reads from stdin,
	// as the MCP server bounds one message (4 MiB).
	maxAgentRequest = 4 << 20
	// maxKeptLine is the largest output line buffer a structural search
	// reuses for the next match; a larger one is dropped after its write.
	maxKeptLine = 64 << 10
)
