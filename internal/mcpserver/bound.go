package mcpserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
)

// boundReply returns p, one outgoing message (a JSON-RPC message or
// batch, with or without a final newline, or an SSE event of one), with
// the errors in it cut so that it fits maxReplyBytes. Anything shorter,
// or that is not an error, is returned as it is.
func boundReply(p []byte) []byte {
	if len(p) <= maxReplyBytes {
		return p
	}
	if bytes.HasPrefix(p, []byte("event:")) || bytes.HasPrefix(p, []byte("id:")) || bytes.HasPrefix(p, []byte("data:")) {
		return boundEvent(p)
	}
	body := bytes.TrimRight(p, "\n")
	if out, ok := boundJSON(body); ok {
		return append(out, p[len(body):]...)
	}
	return p
}

// boundEvent bounds the data line of an SSE event.
func boundEvent(p []byte) []byte {
	i := bytes.Index(p, []byte("data: "))
	if i < 0 || i > 0 && p[i-1] != '\n' {
		return p
	}
	start := i + len("data: ")
	end := start + bytes.IndexByte(p[start:], '\n')
	if end < start {
		end = len(p)
	}
	out, ok := boundJSON(p[start:end])
	if !ok {
		return p
	}
	b := make([]byte, 0, start+len(out)+len(p)-end)
	return append(append(append(b, p[:start]...), out...), p[end:]...)
}

// boundJSON cuts the error messages of a JSON-RPC message or batch to
// share maxReplyBytes, and drops their data. ok is false when b is not
// JSON-RPC or holds no error.
func boundJSON(b []byte) ([]byte, bool) {
	var batch []map[string]json.RawMessage
	isBatch := len(b) > 0 && b[0] == '['
	if isBatch {
		if json.Unmarshal(b, &batch) != nil || len(batch) == 0 {
			return nil, false
		}
	} else {
		var m map[string]json.RawMessage
		if json.Unmarshal(b, &m) != nil {
			return nil, false
		}
		batch = append(batch, m)
	}
	// Each message's error gets an equal share, less room for its id and
	// the rest of the message.
	share := max(maxReplyBytes/len(batch)-256, 64)
	cut := false
	for _, m := range batch {
		raw, ok := m["error"]
		if !ok {
			continue
		}
		var e struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data,omitempty"`
		}
		if json.Unmarshal(raw, &e) != nil {
			continue
		}
		e.Message = cutMessage(e.Message, share-len(m["id"]))
		e.Data = nil
		m["error"], _ = json.Marshal(e)
		cut = true
	}
	if !cut {
		return nil, false
	}
	var out []byte
	var err error
	if isBatch {
		out, err = json.Marshal(batch)
	} else {
		out, err = json.Marshal(batch[0])
	}
	return out, err == nil
}

// cutMessage shortens s to at most n bytes of JSON string (an escaped
// byte can take 6), at a character boundary, saying it was cut.
func cutMessage(s string, n int) string {
	const mark = "… (cut)"
	n = max(n/6-len(mark), 16)
	if len(s) <= n {
		return s
	}
	// A character cut in two is dropped.
	return strings.ToValidUTF8(s[:n], "") + mark
}

// boundedWriter is the http.ResponseWriter the SDK (and the checks in
// front of it) write through: each Write is one answer (a JSON body, an
// SSE event, an http.Error text), bounded by boundReply, or cut to
// maxReplyBytes when it is an error text.
type boundedWriter struct {
	http.ResponseWriter
}

func (w *boundedWriter) Write(p []byte) (int, error) {
	if len(p) <= maxReplyBytes {
		return w.ResponseWriter.Write(p)
	}
	q := p
	if ct := w.Header().Get("Content-Type"); strings.HasPrefix(ct, "text/plain") {
		q = []byte(cutMessage(string(p), maxReplyBytes*6-64) + "\n")
	} else {
		q = boundReply(p)
	}
	if _, err := w.ResponseWriter.Write(q); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Unwrap lets http.ResponseController reach the connection (deadlines,
// flushes).
func (w *boundedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush implements http.Flusher for the SDK's SSE streams.
func (w *boundedWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// longIDIn reports whether a POST body (a message or a batch) holds an id
// of more than maxIDBytes.
func longIDIn(body []byte) bool {
	b := bytes.TrimSpace(body)
	if len(b) > 0 && b[0] == '[' {
		var batch []json.RawMessage
		return json.Unmarshal(b, &batch) == nil && longID(batch...)
	}
	return longID(b)
}
