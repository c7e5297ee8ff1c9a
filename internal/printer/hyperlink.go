package printer

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Hyperlink is a parsed --hyperlink-format (rg 15): the OSC-8 link written
// around the path (and the fields after it) of each printed line.
type Hyperlink struct {
	parts []hyperPart
	// Host replaces {host}; WSLPrefix replaces {wslprefix}.
	Host, WSLPrefix string
	usesLine        bool
}

// hyperPart is literal text or one variable of a format.
type hyperPart struct {
	lit string
	v   string // "" for literal text
}

// HyperlinkAliases are the named formats rg 15.2 knows, in the order its
// messages list them.
var HyperlinkAliases = []struct{ Name, Format string }{
	{"default", "file://{host}{path}"},
	{"none", ""},
	{"cursor", "cursor://file{path}:{line}:{column}"},
	{"file", "file://{host}{path}"},
	{"grep+", "grep+://{path}:{line}"},
	{"kitty", "file://{host}{path}#{line}"},
	{"macvim", "mvim://open?url=file://{path}&line={line}&column={column}"},
	{"textmate", "txmt://open?url=file://{path}&line={line}&column={column}"},
	{"vscode", "vscode://file{path}:{line}:{column}"},
	{"vscode-insiders", "vscode-insiders://file{path}:{line}:{column}"},
	{"vscodium", "vscodium://file{path}:{line}:{column}"},
}

// ParseHyperlink parses a format or an alias; nil (without error) means
// no hyperlinks ("" or none). The errors read as rg 15's.
func ParseHyperlink(format string) (*Hyperlink, error) {
	for _, a := range HyperlinkAliases {
		if a.Name == format {
			format = a.Format
			break
		}
	}
	if format == "" {
		return nil, nil
	}
	h := &Hyperlink{}
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			h.parts = append(h.parts, hyperPart{lit: lit.String()})
			lit.Reset()
		}
	}
	seen := map[string]bool{}
	for i := 0; i < len(format); i++ {
		c := format[i]
		switch {
		case c == '{' && i+1 < len(format) && format[i+1] == '{':
			lit.WriteByte('{')
			i++
		case c == '}' && i+1 < len(format) && format[i+1] == '}':
			lit.WriteByte('}')
			i++
		case c == '{':
			j := strings.IndexByte(format[i+1:], '}')
			if j < 0 {
				return nil, hyperErr("unclosed variable: found '{' without a corresponding '}' following it")
			}
			name := format[i+1 : i+1+j]
			switch name {
			case "path", "line", "column", "host", "wslprefix":
			default:
				return nil, hyperErr(fmt.Sprintf("invalid hyperlink format variable: '%s', choose from: path, line, column, host, wslprefix", name))
			}
			flush()
			h.parts = append(h.parts, hyperPart{v: name})
			seen[name] = true
			i += j + 1
		case c == '}':
			return nil, hyperErr("unopened variable: found '}' without a corresponding '{' preceding it")
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	h.usesLine = seen["line"]
	switch {
	case len(seen) == 0:
		names := make([]string, len(HyperlinkAliases))
		for i, a := range HyperlinkAliases {
			names[i] = a.Name
		}
		return nil, hyperErr("at least a {path} variable is required in a hyperlink format, or otherwise use a valid alias: " + strings.Join(names, ", "))
	case !seen["path"]:
		return nil, hyperErr("the {path} variable is required in a hyperlink format")
	case seen["column"] && !seen["line"]:
		return nil, hyperErr("the hyperlink format contains a {column} variable, but no {line} variable is present")
	case !validScheme(h.parts):
		return nil, hyperErr("the hyperlink format must start with a valid URL scheme, i.e., [0-9A-Za-z+-.]+:")
	}
	return h, nil
}

func hyperErr(msg string) error {
	return fmt.Errorf("error parsing flag --hyperlink-format: invalid hyperlink format: %s", msg)
}

// validScheme reports whether the format starts with literal text of the
// form [0-9A-Za-z+-.]+: .
func validScheme(parts []hyperPart) bool {
	if len(parts) == 0 || parts[0].v != "" {
		return false
	}
	s := parts[0].lit
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return false
	}
	for _, c := range []byte(s[:i]) {
		ok := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '+' || c == '-' || c == '.'
		if !ok {
			return false
		}
	}
	return true
}

// UsesHost reports whether the format has a {host} variable.
func (h *Hyperlink) UsesHost() bool {
	for _, p := range h.parts {
		if p.v == "host" {
			return true
		}
	}
	return false
}

// appendOpen appends the escape that starts a link to path (already
// absolute and percent-encoded) at line and column (0 = unknown: 1).
func (h *Hyperlink) appendOpen(dst, path []byte, line, column uint64) []byte {
	dst = append(dst, "\x1b]8;;"...)
	for _, p := range h.parts {
		switch p.v {
		case "":
			dst = append(dst, p.lit...)
		case "path":
			dst = append(dst, path...)
		case "host":
			dst = append(dst, h.Host...)
		case "wslprefix":
			dst = append(dst, h.WSLPrefix...)
		case "line":
			dst = strconv.AppendUint(dst, max(line, 1), 10)
		case "column":
			dst = strconv.AppendUint(dst, max(column, 1), 10)
		}
	}
	return append(dst, "\x1b\\"...)
}

// hyperlinkClose is the escape that ends a link.
const hyperlinkClose = "\x1b]8;;\x1b\\"

// HyperlinkPath is the {path} of a printed path: absolute, with symbolic
// links resolved, percent-encoded as rg does (bytes other than
// [0-9A-Za-z/:._~-] and non-ASCII become %XX).
func HyperlinkPath(p string) []byte {
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	const hex = "0123456789ABCDEF"
	var out []byte
	for _, c := range []byte(abs) {
		switch {
		case c >= '0' && c <= '9', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= 128,
			c == '/', c == ':', c == '-', c == '.', c == '_', c == '~':
			out = append(out, c)
		default:
			out = append(out, '%', hex[c>>4], hex[c&15])
		}
	}
	return out
}

// WSLPrefix is {wslprefix}: wsl$/NAME when WSL_DISTRO_NAME is set (even
// to nothing, as rg), else "".
func WSLPrefix() string {
	if d, ok := os.LookupEnv("WSL_DISTRO_NAME"); ok {
		return "wsl$/" + d
	}
	return ""
}
