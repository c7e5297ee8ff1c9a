package progress

import (
	"context"
	"testing"
)

func TestReportAndCancel(t *testing.T) {
	ctx := context.Background()
	if Reports(ctx) || Cancelled(ctx) {
		t.Fatal("a background context reports or is cancelled")
	}
	Report(ctx, 1) // no reporter: nothing happens
	var got []int
	ctx = WithReporter(ctx, func(n int) { got = append(got, n) })
	if !Reports(ctx) {
		t.Fatal("WithReporter: no reporter")
	}
	Report(ctx, 3)
	Report(ctx, 5)
	if len(got) != 2 || got[0] != 3 || got[1] != 5 {
		t.Fatalf("reports: %v", got)
	}
	if WithReporter(context.Background(), nil) != context.Background() {
		t.Fatal("a nil reporter made a new context")
	}
	cctx, cancel := context.WithCancel(ctx)
	if Cancelled(cctx) {
		t.Fatal("cancelled before cancel")
	}
	cancel()
	if !Cancelled(cctx) {
		t.Fatal("not cancelled after cancel")
	}
	Report(cctx, 7) // the reporter is inherited
	if len(got) != 3 {
		t.Fatalf("reports after cancel: %v", got)
	}
}
