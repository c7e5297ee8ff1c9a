package rank

import "testing"

// The masks made run by run are those of the whole path's tokens.
func TestPathMaskerMatchesPathMask(t *testing.T) {
	paths := []string{
		"net/http/server.go", "net/http/httputil/reverseproxy.go", "cmd/go/internal/modload/build.go",
		"src/RouteContext.ts", "lib/parse_args.py", "packages/eslint-plugin/rules/no-unused-vars.js",
		"crypto/x509/x509.go", "time/format_rfc3339.go", "docs/Überblick/Straße.md", "a/b.c.d/e.tar.gz",
		"internal/trace/traceviewer/http.go", "HTTPServer/URLParser.java", "walker/walk.go", "_x/__init__.py",
	}
	queries := []string{"http request timeout", "ParseDuration", "walk a directory tree", "how does the http server parse a request",
		"route context", "parse args", "no unused vars", "x509 certificate", "straße", "URL parser", "init"}
	for _, qs := range queries {
		q := ParseQuery(qs, &Default)
		pm := newPathMasker(&q)
		for _, p := range paths {
			if want, got := q.pathMask(pathTokens(p)), pm.mask(p); got != want {
				t.Errorf("%q on %s: %b, want %b", qs, p, got, want)
			}
		}
	}
}

// A span the offsets cannot bound reads as empty, never out of range.
func TestOffsetsSpan(t *testing.T) {
	var o offsets
	for _, x := range []int{0, 3, 2, 9, 5} {
		o = o.add(x)
	}
	blob := []byte("abcdef")
	for i, want := range []string{"abc", "", "", "", ""} {
		if got := string(o.span(blob, i)); got != want {
			t.Errorf("span %d: %q, want %q", i, got, want)
		}
	}
	if o.span(blob, -1) != nil {
		t.Error("span -1")
	}
}
