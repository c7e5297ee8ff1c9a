// Package progress carries a long piece of work's cancellation and its
// progress reports in one context.Context, so that every analysis (a
// search walk, an impact parse, a rank index build, a structural search,
// an outline) is stopped and heard from the same way, whichever front end
// (the command line, --agent, MCP) started it.
//
// Cancellation is the context's own; progress is a reporter the front end
// puts in the context (MCP turns it into notifications/progress). Both
// are polled by the engine at file granularity, so neither costs more
// than a channel poll and an atomic load per file.
package progress

import "context"

type reporterKey struct{}

// Reporter hears how many files a piece of work has done so far. It may
// be called from several goroutines at once, and the counts it hears are
// not always increasing (workers report as they go).
type Reporter func(files int)

// WithReporter returns a copy of ctx that carries r; Report calls r.
func WithReporter(ctx context.Context, r Reporter) context.Context {
	if r == nil {
		return ctx
	}
	return context.WithValue(ctx, reporterKey{}, r)
}

// Report tells ctx's reporter, if there is one, that files are done.
func Report(ctx context.Context, files int) {
	if r, ok := ctx.Value(reporterKey{}).(Reporter); ok {
		r(files)
	}
}

// Reports reports whether ctx carries a reporter (work may then count
// what it would otherwise not).
func Reports(ctx context.Context) bool {
	_, ok := ctx.Value(reporterKey{}).(Reporter)
	return ok
}

// Cancelled reports whether ctx is done: a poll that never blocks.
func Cancelled(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return true
	default:
		return false
	}
}
