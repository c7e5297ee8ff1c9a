package agent

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Agent names of files. An answer is UTF-8 text and JSON, one match a
// line, so a path is shown as itself only when it is valid UTF-8 without
// control characters (and does not start with a double quote); any other
// path is shown Go-quoted ("bad\xffname.go", "new\nline.txt"), which is
// one line, lossless and valid JSON. Snapshots store the names answers
// show, so a name from an answer selects its file again (paths with a
// cursor, inspect targets), and every request field that names a path
// (path, paths, targets, related) accepts the quoted form.

// nameOf is the agent name of path p.
func nameOf(p string) string {
	if plainName(p) {
		return p
	}
	return strconv.Quote(p)
}

// plainName reports whether p is shown as itself.
func plainName(p string) bool {
	if strings.HasPrefix(p, `"`) {
		return false
	}
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(p[i:])
		if r == utf8.RuneError && n <= 1 || !unicode.IsPrint(r) {
			return false
		}
		i += n
	}
	return true
}

// pathOf is the path an agent name stands for: a quoted name unquoted,
// any other name itself.
func pathOf(name string) string {
	if strings.HasPrefix(name, `"`) {
		if p, err := strconv.Unquote(name); err == nil {
			return p
		}
	}
	return name
}

// decodeNames turns the path fields of a request from agent names into
// paths.
func (r *Request) decodeNames() {
	r.Path = pathOf(r.Path)
	for i, p := range r.Paths {
		r.Paths[i] = pathOf(p)
	}
	for i := range r.Targets {
		r.Targets[i].Path = pathOf(r.Targets[i].Path)
	}
	if r.Related != nil {
		r.Related.Path = pathOf(r.Related.Path)
	}
}
