package cli

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// UsageError is a command-line error, in rg 15's one-line form: printed to
// stderr, exit code 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Args is the raw result of parsing: which flags are present (after
// overrides), their values in order, how often each occurred, and the
// positional arguments.
type Args struct {
	present map[string]bool
	values  map[string][]string
	// sequence holds every flag value in command-line order.
	sequence    []FlagValue
	occurrences map[string]int
	Positional  []string
	// written is each flag as it was last written (-V or --version).
	written map[string]string
}

// Written returns the flag as it was last written on the command line
// ("-V" or "--version"), or "" when it is absent.
func (a *Args) Written(name string) string { return a.written[name] }

// Has reports whether the flag (by long name) is present after overrides.
func (a *Args) Has(name string) bool { return a.present[name] }

// Count returns how often a flag occurred (for -u).
func (a *Args) Count(name string) int { return a.occurrences[name] }

// Value returns the last value of a single-valued flag.
func (a *Args) Value(name string) (string, bool) {
	v := a.values[name]
	if len(v) == 0 {
		return "", false
	}
	return v[len(v)-1], true
}

// Values returns every value of a multi-valued flag, in order.
func (a *Args) Values(name string) []string { return a.values[name] }

// FlagValue is one value given to a flag (by long name).
type FlagValue struct{ Flag, Value string }

// InOrder returns the values of the named multi-valued flags interleaved
// in command-line order.
func (a *Args) InOrder(names ...string) []FlagValue {
	var out []FlagValue
	for _, fv := range a.sequence {
		for _, n := range names {
			if fv.Flag == n {
				out = append(out, fv)
			}
		}
	}
	return out
}

// usageErr is a command-line error in rg 15's one-line form.
func usageErr(format string, a ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, a...)}
}

// Parse splits argv (without the program name) as rg 15 does.
func Parse(argv []string) (*Args, error) {
	a := &Args{
		present:     map[string]bool{},
		values:      map[string][]string{},
		occurrences: map[string]int{},
		written:     map[string]string{},
	}
	// as is the flag as written (-A or --after-context), for messages.
	var set func(d *flagDef, as, val string, hasVal bool) error
	set = func(d *flagDef, as, val string, hasVal bool) error {
		if d.long == "pretty" {
			// rg 15: -p is --color=always --heading --line-number where
			// it stands, each overridden by a later flag.
			for _, f := range [][2]string{{"color", "always"}, {"heading", ""}, {"line-number", ""}} {
				if err := set(byLong[f[0]], as, f[1], f[1] != ""); err != nil {
					return err
				}
			}
		}
		if d.number && hasVal {
			if _, err := strconv.ParseUint(val, 10, 64); err != nil {
				return usageErr("error parsing flag %s: value is not a valid number: invalid digit found in string", as)
			}
		}
		if d.check != nil && hasVal {
			if !utf8.ValidString(val) {
				return usageErr("error parsing flag %s: value is not valid UTF-8", as)
			}
			if err := d.check(val); err != nil {
				return usageErr("error parsing flag %s: %v", as, err)
			}
		}
		if len(d.possible) > 0 && hasVal && !slices.Contains(d.possible, val) {
			return usageErr("error parsing flag %s: choice '%s' is unrecognized", as, val)
		}
		for _, o := range d.overrides {
			delete(a.present, o)
			delete(a.values, o)
		}
		a.present[d.long] = true
		a.occurrences[d.long]++
		a.written[d.long] = as
		if hasVal {
			if d.multiple {
				a.values[d.long] = append(a.values[d.long], val)
				a.sequence = append(a.sequence, FlagValue{Flag: d.long, Value: val})
			} else {
				a.values[d.long] = []string{val}
			}
		}
		return nil
	}
	i := 0
	for i < len(argv) {
		arg := argv[i]
		i++
		switch {
		case arg == "--":
			a.Positional = append(a.Positional, argv[i:]...)
			i = len(argv)
		case strings.HasPrefix(arg, "--"):
			name, val, hasEq := strings.Cut(arg[2:], "=")
			d := byLong[name]
			as := "--" + name
			if d == nil {
				return nil, usageErr("unrecognized flag %s", as)
			}
			if !d.value {
				if hasEq {
					return nil, usageErr("invalid CLI arguments: unexpected argument for option '%s': %q", as, val)
				}
				if err := set(d, as, "", false); err != nil {
					return nil, err
				}
				continue
			}
			if !hasEq {
				if i >= len(argv) || (!d.hyphen && looksLikeFlag(argv[i])) {
					return nil, usageErr("missing value for flag %s: missing argument for option '%s'", as, as)
				}
				val = argv[i]
				i++
			}
			if err := set(d, as, val, true); err != nil {
				return nil, err
			}
		case strings.HasPrefix(arg, "-") && len(arg) > 1:
			cluster := arg[1:]
			for k := 0; k < len(cluster); k++ {
				d := byShort[cluster[k]]
				as := "-" + string(cluster[k])
				if d == nil {
					return nil, usageErr("unrecognized flag %s", as)
				}
				if !d.value {
					if err := set(d, as, "", false); err != nil {
						return nil, err
					}
					continue
				}
				rest := cluster[k+1:]
				var val string
				if rest != "" {
					val = strings.TrimPrefix(rest, "=")
				} else {
					if i >= len(argv) || (!d.hyphen && looksLikeFlag(argv[i])) {
						return nil, usageErr("missing value for flag %s: missing argument for option '%s'", as, as)
					}
					val = argv[i]
					i++
				}
				if err := set(d, as, val, true); err != nil {
					return nil, err
				}
				break
			}
		default:
			a.Positional = append(a.Positional, arg)
		}
	}
	return a, nil
}

// looksLikeFlag reports whether s would be parsed as a flag by clap (and so
// cannot be taken as a value for a flag that refuses leading hyphens).
func looksLikeFlag(s string) bool {
	if len(s) < 2 || s[0] != '-' {
		return false
	}
	if s[1] >= '0' && s[1] <= '9' {
		return false // negative numbers are taken as values by rg's number flags' validators
	}
	return true
}
