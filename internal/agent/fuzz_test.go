package agent

import (
	"encoding/json"
	"testing"
)

// FuzzParseRequest: the request decoder never panics, refuses what it
// refuses with an invalid-request error, and a request it accepts is
// accepted again, the same, once written back as JSON (what a next call
// does with a suggested request).
func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{
		`{"pattern":"x"}`, `{"pattern":"x","PATTERN":"y"}`, `{"pattern":"x","pattern":"y"}`,
		`{"mode":"inspect","targets":[{"path":"a","line":1}]}`, `{"mode":"rank","related":{"path":"a","line":2}}`,
		`{"terms":["a","b"],"match":"all"}`, `{"glob":"*.go","pattern":"a"}`, `{"glob":["*.go"],"exclude":["x"],"pattern":"a"}`,
		`{"cursor":"0123456789abcdef0123456789abcdef","paths":["a.go"]}`, `{"mode":"structural","pattern":"f($A)","lang":"go","rewrite":"g($A)"}`,
		`[]`, `null`, `{"pattern":1}`, `{"limit":-1,"pattern":"x"}`, `{"a":{"b":[{"c":{}}]}}`, `{"pattern":"x"} {}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseRequest(data)
		if err != nil {
			if e, ok := err.(*Error); !ok || e.Code != CodeInvalidRequest {
				t.Fatalf("%q: error %v is not an invalid-request error", data, err)
			}
			return
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("%q: %v", data, err)
		}
		r2, err := ParseRequest(b)
		if err != nil {
			t.Fatalf("%q accepted, but written back as %s refused: %v", data, b, err)
		}
		b2, _ := json.Marshal(r2)
		if string(b) != string(b2) {
			t.Fatalf("%q: %s then %s", data, b, b2)
		}
	})
}
