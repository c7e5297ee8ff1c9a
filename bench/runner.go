package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"sync/atomic"
	"time"
)

// Sample is the outcome of one run of one tool.
type Sample struct {
	// Wall is the time from start to exit, with stdout fully drained.
	Wall time.Duration
	// MaxRSSKiB is the child's peak resident set size (rusage), or -1.
	MaxRSSKiB int64
	// FloorKiB is the harness's own peak RSS when the child started: a
	// vfork'ed child's Maxrss is never below it, so a value at the floor
	// is an upper bound, not a measurement. 0 when unknown.
	FloorKiB int64
	// Lines is the number of lines the tool printed on stdout.
	Lines int64
	// Exit is the exit code (-1 when killed by a signal).
	Exit int
	// TimedOut is true when the harness killed the tool.
	TimedOut bool
	// Stderr is the start of what the tool printed on stderr.
	Stderr string
	// StartErr is set when the tool could not be started.
	StartErr error
}

// Failed reports whether the run says nothing about speed: not started,
// killed, or an exit code other than 0 (match) and 1 (no match).
func (s Sample) Failed() bool {
	return s.StartErr != nil || s.TimedOut || s.Exit < 0 || s.Exit > 1
}

// AtFloor reports whether the peak RSS may be the harness's, not the tool's.
func (s Sample) AtFloor() bool {
	return s.FloorKiB > 0 && s.MaxRSSKiB >= 0 && s.MaxRSSKiB <= s.FloorKiB+rssFloorMarginKiB
}

// lineCounter counts the lines of a stream: every newline, plus a last
// line without one.
type lineCounter struct {
	lines int64
	bytes int64
	last  byte
}

// Write counts p; it never fails.
func (c *lineCounter) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	c.lines += int64(bytes.Count(p, []byte{'\n'}))
	c.bytes += int64(len(p))
	c.last = p[len(p)-1]
	return len(p), nil
}

// Lines is the number of lines seen so far.
func (c *lineCounter) Lines() int64 {
	if c.bytes > 0 && c.last != '\n' {
		return c.lines + 1
	}
	return c.lines
}

// headBuffer keeps the first max bytes written to it and drops the rest.
type headBuffer struct {
	buf bytes.Buffer
	max int
}

// Write keeps what fits; it never fails, so the writer is always drained.
func (h *headBuffer) Write(p []byte) (int, error) {
	if room := h.max - h.buf.Len(); room > 0 {
		if len(p) < room {
			room = len(p)
		}
		h.buf.Write(p[:room])
	}
	return len(p), nil
}

// runner starts tools with a fixed environment and one reused buffer.
type runner struct {
	env []string
	buf []byte
	// maxFloorKiB is the highest RSS floor met by any run (see Sample).
	maxFloorKiB int64
}

// newRunner returns a runner whose children get env.
func newRunner(env []string) *runner {
	return &runner{env: env, buf: make([]byte, copyBufferBytes)}
}

// beginJob returns the harness's free heap to the system, so that its
// resident set, the floor under every child's Maxrss, is as small as it
// gets (see selfPeakRSSKiB).
func (r *runner) beginJob() {
	debug.FreeOSMemory()
}

// run runs inv once, killing it after timeout: stdout goes to a pipe that the harness drains and
// counts (never /dev/null, which some tools detect and short-cut), stderr
// is kept in part, and the wall time covers start to exit.
func (r *runner) run(inv Invocation, timeout time.Duration) Sample {
	s := Sample{MaxRSSKiB: -1, Exit: -1}
	cmd := exec.Command(inv.Args[0], inv.Args[1:]...)
	cmd.Dir = inv.Dir
	cmd.Env = r.env
	stderr := &headBuffer{max: stderrKeepBytes}
	cmd.Stderr = stderr
	cmd.WaitDelay = waitDelay
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		s.StartErr = err
		return s
	}
	resetPeakRSS()
	s.FloorKiB = selfPeakRSSKiB()
	r.maxFloorKiB = max(r.maxFloorKiB, s.FloorKiB)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		s.StartErr = err
		return s
	}
	var killed atomic.Bool
	timer := time.AfterFunc(timeout, func() {
		killed.Store(true)
		_ = cmd.Process.Kill()
	})
	var lc lineCounter
	_, copyErr := io.CopyBuffer(&lc, onlyReader{stdout}, r.buf)
	waitErr := cmd.Wait()
	s.Wall = time.Since(start)
	timer.Stop()
	s.TimedOut = killed.Load()
	s.Lines = lc.Lines()
	s.Stderr = stderr.buf.String()
	if cmd.ProcessState != nil {
		s.Exit = cmd.ProcessState.ExitCode()
		s.MaxRSSKiB = childPeakRSSKiB(cmd.ProcessState)
	}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) && s.StartErr == nil && !s.TimedOut {
		s.StartErr = waitErr
	}
	if copyErr != nil && !errors.Is(copyErr, os.ErrClosed) && s.StartErr == nil && !s.TimedOut {
		s.StartErr = copyErr
	}
	return s
}

// onlyReader hides any WriterTo of the pipe so CopyBuffer uses the buffer.
type onlyReader struct{ io.Reader }
