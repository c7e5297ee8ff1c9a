package cli

import (
	"fmt"
	"strconv"
	"strings"
)

// UsageError is a command-line error that rg reports through clap: printed to
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
}

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

const usageTail = `

USAGE:
    
    rg [OPTIONS] PATTERN [PATH ...]
    rg [OPTIONS] -e PATTERN ... [PATH ...]
    rg [OPTIONS] -f PATTERNFILE ... [PATH ...]
    rg [OPTIONS] --files [PATH ...]
    rg [OPTIONS] --type-list
    command | rg [OPTIONS] PATTERN
    rg [OPTIONS] --help
    rg [OPTIONS] --version

For more information try --help
`

func usageErr(format string, a ...any) error {
	return &UsageError{Msg: "error: " + fmt.Sprintf(format, a...) + usageTail}
}

// Parse splits argv (without the program name) as clap does for rg 13.
func Parse(argv []string) (*Args, error) {
	a := &Args{
		present:     map[string]bool{},
		values:      map[string][]string{},
		occurrences: map[string]int{},
	}
	order := []string{} // flags in the order seen, for conflict checks
	set := func(d *flagDef, val string, hasVal bool) error {
		if d.number && hasVal {
			if _, err := strconv.ParseUint(val, 10, 64); err != nil {
				return usageErr("Invalid value for '--%s <%s>': invalid digit found in string", d.long, "NUM")
			}
		}
		if len(d.possible) > 0 && hasVal {
			ok := false
			for _, p := range d.possible {
				if p == val {
					ok = true
				}
			}
			if !ok {
				return usageErr("'%s' isn't a valid value for '--%s <%s>'\n\t[possible values: %s]", val, d.long, strings.ToUpper(d.long), strings.Join(d.possible, ", "))
			}
		}
		for _, o := range d.overrides {
			delete(a.present, o)
			delete(a.values, o)
		}
		a.present[d.long] = true
		a.occurrences[d.long]++
		if hasVal {
			if d.multiple {
				a.values[d.long] = append(a.values[d.long], val)
				a.sequence = append(a.sequence, FlagValue{Flag: d.long, Value: val})
			} else {
				a.values[d.long] = []string{val}
			}
		}
		order = append(order, d.long)
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
			if d == nil {
				return nil, usageErr("Found argument '--%s' which wasn't expected, or isn't valid in this context", name)
			}
			if !d.value {
				if hasEq {
					return nil, usageErr("Found argument '%s' which wasn't expected, or isn't valid in this context", arg)
				}
				if err := set(d, "", false); err != nil {
					return nil, err
				}
				continue
			}
			if !hasEq {
				if i >= len(argv) || (!d.hyphen && looksLikeFlag(argv[i])) {
					return nil, usageErr("The argument '--%s <%s>' requires a value but none was supplied", d.long, strings.ToUpper(d.long))
				}
				val = argv[i]
				i++
			}
			if err := set(d, val, true); err != nil {
				return nil, err
			}
		case strings.HasPrefix(arg, "-") && len(arg) > 1:
			cluster := arg[1:]
			for k := 0; k < len(cluster); k++ {
				d := byShort[cluster[k]]
				if d == nil {
					return nil, usageErr("Found argument '-%c' which wasn't expected, or isn't valid in this context", cluster[k])
				}
				if !d.value {
					if err := set(d, "", false); err != nil {
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
						return nil, usageErr("The argument '-%c <%s>' requires a value but none was supplied", d.short, strings.ToUpper(d.long))
					}
					val = argv[i]
					i++
				}
				if err := set(d, val, true); err != nil {
					return nil, err
				}
				break
			}
		default:
			a.Positional = append(a.Positional, arg)
		}
	}
	// Conflicts are checked on what survived the overrides.
	for _, name := range order {
		if !a.present[name] {
			continue
		}
		d := byLong[name]
		for _, c := range d.conflicts {
			if c == "pattern" {
				if len(a.Positional) > 0 {
					return nil, usageErr("The argument '--%s' cannot be used with '<PATTERN>'", name)
				}
				continue
			}
			if a.present[c] {
				return nil, usageErr("The argument '--%s' cannot be used with '--%s'", c, name)
			}
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
