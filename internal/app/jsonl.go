package app

import (
	"bytes"
	"encoding/json"
)

// jsonLine appends v as one line of JSON, without HTML escaping (paths
// and lines as they are, as rg writes them): the one writer of every JSON
// form of evgrep's own commands (the analyses, --rank, --outline, --ast,
// --terms); rg's --json events are the printer's.
func jsonLine(b []byte, v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return append(b, buf.Bytes()...)
}
