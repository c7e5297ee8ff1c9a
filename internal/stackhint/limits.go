package stackhint

// deepBytes is Deep's frame: the main goroutine of a search (start-up,
// the command line or the agent's request, rendering) and JSON's encoder
// building grew to 32 KiB; a 24 KiB frame takes the stack straight there
// (the runtime doubles it until the frame and its guard fit).
const deepBytes = 24 << 10

// workerBytes is Worker's frame: a walking goroutine (walk, read, match)
// and a snapshot write grew to 16 KiB.
const workerBytes = 12 << 10
