// Package printer renders search results exactly as ripgrep 13's printers
// do: the standard grep-like format, the summary formats (counts, file
// lists) and the JSON Lines format, plus --stats.
package printer

import (
	"fmt"
	"strconv"
	"strings"
)

// Spec is one colour specification: foreground, background and styles.
type Spec struct {
	FG, BG                   string // ANSI parameter for the colour ("31", "38;5;9", "38;2;1;2;3"), "" for none
	Bold, Intense, Underline bool
	set                      bool
}

// IsNone reports whether the spec prints no escapes.
func (s Spec) IsNone() bool { return !s.set }

// Colors holds the specs of the four coloured elements.
type Colors struct {
	Path, Line, Column, Match Spec
}

// DefaultColors returns rg 13's default colours on Unix.
func DefaultColors() Colors {
	var c Colors
	_ = c.apply("path:fg:magenta")
	_ = c.apply("line:fg:green")
	_ = c.apply("match:fg:red")
	_ = c.apply("match:style:bold")
	return c
}

// ParseColors applies user --colors specs on top of the defaults.
func ParseColors(specs []string) (Colors, error) {
	c := DefaultColors()
	for _, s := range specs {
		if err := c.apply(s); err != nil {
			return c, err
		}
	}
	return c, nil
}

var colorNames = map[string]int{"black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6, "white": 7}

func (c *Colors) apply(spec string) error {
	parts := strings.Split(spec, ":")
	var target *Spec
	switch parts[0] {
	case "path":
		target = &c.Path
	case "line":
		target = &c.Line
	case "column":
		target = &c.Column
	case "match":
		target = &c.Match
	default:
		//lint:ignore ST1005 rg's exact error text ends with a period
		return fmt.Errorf("unrecognized output type '%s'. Choose from: path, line, column, match.", parts[0])
	}
	if len(parts) == 2 && parts[1] == "none" {
		*target = Spec{}
		return nil
	}
	if len(parts) != 3 {
		//lint:ignore ST1005 rg's exact error text ends with a period
		return fmt.Errorf("invalid color spec format: '%s'. Valid format is '(path|line|column|match):(fg|bg|style):(value)'.", spec)
	}
	val := parts[2]
	switch parts[1] {
	case "fg", "bg":
		code, err := colorCode(val, parts[1] == "bg")
		if err != nil {
			return err
		}
		if parts[1] == "fg" {
			target.FG = code
		} else {
			target.BG = code
		}
	case "style":
		switch val {
		case "bold":
			target.Bold = true
		case "nobold":
			target.Bold = false
		case "intense":
			target.Intense = true
		case "nointense":
			target.Intense = false
		case "underline":
			target.Underline = true
		case "nounderline":
			target.Underline = false
		default:
			//lint:ignore ST1005 rg's exact error text ends with a period
			return fmt.Errorf("unrecognized style attribute '%s'. Choose from: nobold, bold, nointense, intense, nounderline, underline.", val)
		}
	default:
		//lint:ignore ST1005 rg's exact error text ends with a period
		return fmt.Errorf("unrecognized spec type '%s'. Choose from: fg, bg, style, none.", parts[1])
	}
	target.set = true
	return nil
}

func colorCode(val string, bg bool) (string, error) {
	base := 30
	if bg {
		base = 40
	}
	if n, ok := colorNames[val]; ok {
		return strconv.Itoa(base + n), nil
	}
	nums := strings.Split(val, ",")
	parse := func(s string) (int, error) {
		if strings.HasPrefix(s, "0x") {
			v, err := strconv.ParseUint(s[2:], 16, 8)
			return int(v), err
		}
		v, err := strconv.ParseUint(s, 10, 8)
		return int(v), err
	}
	ext := base + 8
	switch len(nums) {
	case 1:
		n, err := parse(nums[0])
		if err == nil {
			return fmt.Sprintf("%d;5;%d", ext, n), nil
		}
	case 3:
		r, e1 := parse(nums[0])
		g, e2 := parse(nums[1])
		b, e3 := parse(nums[2])
		if e1 == nil && e2 == nil && e3 == nil {
			return fmt.Sprintf("%d;2;%d;%d;%d", ext, r, g, b), nil
		}
	}
	return "", fmt.Errorf("unrecognized color name '%s'. Choose from: black, blue, green, red, cyan, magenta, yellow, white", val)
}

// start returns the escape sequence that begins text in this spec, as
// termcolor writes it (a reset first, then styles, then colours).
func (s Spec) Start() string {
	var b strings.Builder
	b.WriteString("\x1b[0m")
	if s.Bold {
		b.WriteString("\x1b[1m")
	}
	if s.Underline {
		b.WriteString("\x1b[4m")
	}
	if s.FG != "" {
		b.WriteString(intensify(s.FG, s.Intense))
	}
	if s.BG != "" {
		b.WriteString(intensify(s.BG, s.Intense))
	}
	return b.String()
}

func intensify(code string, intense bool) string {
	if intense && len(code) == 2 {
		n, _ := strconv.Atoi(code)
		return fmt.Sprintf("\x1b[%dm", n+60)
	}
	return "\x1b[" + code + "m"
}

const colorReset = "\x1b[0m"
