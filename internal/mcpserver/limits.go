package mcpserver

import "time"

// Bounds of the MCP server, one constant each.
const (
	// maxMessageBytes bounds one stdio message (one line) and one HTTP
	// request body. A longer stdio line ends the session with an error
	// once the cap is read, without buffering the rest; a longer body is
	// refused with 413.
	maxMessageBytes = 4 << 20

	// Bodies in flight: a POST body is read only in a slot. A body of at
	// most smallBodyBytes (by its Content-Length) takes one of
	// maxSmallBodies slots, any other one of maxLargeBodies; a request
	// that finds none free waits for one at most bodyWait, then gets 503.
	// A slot is held until the SDK has read the body. So the bodies being
	// read take at most maxLargeBodies × maxMessageBytes + maxSmallBodies
	// × smallBodyBytes = 32 + 16 = 48 MiB however many connections send
	// them (about three times that with the buffers' growth and the SDK's
	// copy); a client stalling mid-body holds its slot until readTimeout.
	maxLargeBodies = 8
	maxSmallBodies = 256
	smallBodyBytes = 64 << 10
	bodyWait       = readTimeout

	// maxReplyBytes bounds every error the server sends, the SDK's own
	// included (they quote a method, tool or prompt name, a resource URI
	// or the params whole): a JSON-RPC error reply (one message, a batch
	// or an SSE event of one), or the text of an HTTP error. A longer one
	// has its message cut and its data dropped (bound.go). A request id,
	// which the reply repeats, is at most maxIDBytes of JSON: a message
	// with a longer one is refused (-32600, id null).
	maxReplyBytes = 16 << 10
	maxIDBytes    = 256

	// maxBatch is how many messages one JSON-RPC batch may hold, for the
	// protocol versions that have batches (2024-11-05 and 2025-03-26);
	// later versions have none, and a batch gets an Invalid Request error.
	// The reply of a batch is then at most maxBatch answers, each bounded
	// by the agent's 16 KiB budget.
	maxBatch = 16

	// maxSearches bounds the tool calls answered at once, over all
	// sessions; maxQueuedSearches more may wait for a slot, and a call
	// beyond is refused at once (a busy error result). ping, tools/list and
	// the other methods never wait for a search.
	maxSearches       = 4
	maxQueuedSearches = 32

	// snapshotBudget bounds the memory of the snapshots kept by all
	// sessions together (snapshot.Store.MemoryBytes). Past it the least
	// recently used snapshots are dropped, those of sessions without a
	// call in flight first. Searches in progress hold at most
	// maxSearches × snapshot.MaxRetainedBytes more.
	snapshotBudget = 512 << 20

	// maxSessions bounds the live streamable HTTP sessions. A new session
	// past it evicts the least recently used session that is idle (no
	// request in flight, none for sessionBusyWindow); when every session
	// is busy the new one is refused with 503.
	maxSessions       = 64
	sessionBusyWindow = 60 * time.Second

	// stdioDrain is how long the end of stdin waits for the answers to
	// the requests read before it (a script piping requests in gets them);
	// past it the calls still running are cancelled and the session ends.
	stdioDrain = 30 * time.Second

	// sessionIdle is how long an HTTP session lives without a request.
	sessionIdle = 10 * time.Minute

	// readHeaderTimeout bounds how long a client may take to send its
	// request headers, readTimeout the whole request with its body (the
	// deadline is lifted once the body is read, so a long answer is not
	// cut), and idleTimeout how long a keep-alive connection waits for
	// its next request.
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	idleTimeout       = 2 * time.Minute
)

// maxDescriptionChars bounds the tool description (it is read on every
// turn).
const maxDescriptionChars = 1800

// Bounds of agent.Request fields, stated in the input schema (the agent's
// Validate enforces them; TestSchemaBounds checks that both agree).
const (
	maxLimit        = 100
	maxContext      = 20
	maxInspectBatch = 5
	maxLine         = 1<<31 - 1
)
