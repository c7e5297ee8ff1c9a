// Package stackhint grows a goroutine's stack once, while it is shallow,
// to the size its work reaches anyway.
//
// A goroutine starts on a small stack that the runtime doubles, by a copy,
// each time a call needs more. Each copy walks every frame on the stack
// and reads each function's entries in the executable's function table
// (.gopclntab); the kernel maps those pages, and their neighbours, into
// the process, where they stay. An agent call made 13 such copies (about
// 200 lookups in the table, most deep in JSON encoding and in the walk),
// and held 1.9 MB of the table at its peak. Growing first, from a frame or
// two, takes one copy that walks those frames only.
//
// Importing the package grows the main goroutine's stack (which runs every
// package's init function and then main) before the other packages'
// inits: it imports nothing, so it is one of the first initialised.
package stackhint

func init() { Deep() }

// Deep grows the calling goroutine's stack to hold a deepBytes frame
// (limits.go): for goroutines whose work goes deep (the main goroutine,
// JSON encoding by reflection).
//
//go:noinline
func Deep() {
	var frame [deepBytes]byte
	touch(frame[:])
}

// Worker grows the calling goroutine's stack to hold a workerBytes frame
// (limits.go): for a walking goroutine, or one that writes a file.
//
//go:noinline
func Worker() {
	var frame [workerBytes]byte
	touch(frame[:])
}

// touch keeps the frame from being optimised away.
//
//go:noinline
func touch(b []byte) { b[len(b)-1] = 1 }
