// Package timerslack sets the process's timer slack to one nanosecond as
// the process starts, before the Go runtime makes its threads (which
// inherit it), by importing it for its side effect.
//
// Linux lets a sleep of a thread that is not real-time end up to its timer
// slack late, 50 µs by default. The Go scheduler sleeps a few microseconds
// at a time while it hands work between threads (a thread that steals a
// goroutine from a busy one waits 3 µs first), so on a short run such as
// an agent call those waits took ~55 µs each. An agent call on
// GOROOT/src/net (415 files) on a copy of the executable, the medians of
// rounds of 15 runs: 25.6 -> 23.4 ms over 4 rounds, 23.9 -> 23.1 ms over
// 8 more (each round's median moves 2-3 ms with the machine); a tiny-tree
// search and a GOROOT literal search did not move. With cgo the slack is set by a C
// constructor; without, by this package's init, which is early but after
// the runtime's first threads.
package timerslack
