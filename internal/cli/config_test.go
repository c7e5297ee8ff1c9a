package cli

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/printer"
	"github.com/evgrep/evgrep/internal/search"
	"github.com/evgrep/evgrep/matcher"
	"github.com/evgrep/evgrep/walker"
	"github.com/evgrep/evgrep/walker/ignore"
)

// TestOverrides checks clap's "last one wins" rules between named flags,
// each of which was confirmed against rg 13.
func TestOverrides(t *testing.T) {
	cases := []struct {
		args []string
		get  func(*Config) any
		want any
	}{
		// rg 15: -A and -B win over -C in any order.
		{[]string{"-A1", "-C2", "x"}, func(c *Config) any { return [2]int{c.Pipeline.Search.Before, c.Pipeline.Search.After} }, [2]int{2, 1}},
		{[]string{"-C2", "-A1", "x"}, func(c *Config) any { return [2]int{c.Pipeline.Search.Before, c.Pipeline.Search.After} }, [2]int{2, 1}},
		{[]string{"-B1", "-C0", "x"}, func(c *Config) any { return [2]int{c.Pipeline.Search.Before, c.Pipeline.Search.After} }, [2]int{1, 0}},
		{[]string{"--passthru", "-A1", "x"}, func(c *Config) any { return c.Pipeline.Search.Passthru }, false},
		{[]string{"-i", "-s", "x"}, func(c *Config) any { return c.Matcher.Case }, matcher.Sensitive},
		{[]string{"-s", "-i", "x"}, func(c *Config) any { return c.Matcher.Case }, matcher.Insensitive},
		{[]string{"-i", "-S", "x"}, func(c *Config) any { return c.Matcher.Case }, matcher.Smart},
		{[]string{"-c", "--count-matches", "x"}, func(c *Config) any { return c.Printer.SummaryKind }, printer.SummaryCountMatches},
		{[]string{"--count-matches", "-c", "x"}, func(c *Config) any { return c.Printer.SummaryKind }, printer.SummaryCount},
		{[]string{"-o", "-c", "x"}, func(c *Config) any { return c.Printer.SummaryKind }, printer.SummaryCountMatches},
		{[]string{"-l", "--files-without-match", "x"}, func(c *Config) any { return c.Printer.SummaryKind }, printer.SummaryPathWithoutMatch},
		// rg 15: the last of the output modes wins.
		{[]string{"-c", "-l", "x"}, func(c *Config) any { return c.Printer.SummaryKind }, printer.SummaryPathWithMatch},
		{[]string{"-c", "--json", "x"}, func(c *Config) any { return c.Output }, OutputJSON},
		{[]string{"--json", "-c", "x"}, func(c *Config) any { return [2]any{c.Output, c.Printer.SummaryKind} }, [2]any{OutputSummary, printer.SummaryCount}},
		{[]string{"--files", "-e", "x"}, func(c *Config) any { return c.Command }, CmdFiles},
		{[]string{"--files", "-l", "x"}, func(c *Config) any { return c.Command }, CmdSearch},
		{[]string{"--json", "--type-list"}, func(c *Config) any { return c.Command }, CmdTypeList},
		{[]string{"-n", "-N", "x", "f"}, func(c *Config) any { return c.Pipeline.Search.LineNumbers }, false},
		{[]string{"--column", "x", "f"}, func(c *Config) any { return c.Pipeline.Search.LineNumbers }, true},
		{[]string{"-w", "-x", "x"}, func(c *Config) any { return [2]bool{c.Matcher.Word, c.Matcher.Line} }, [2]bool{false, true}},
		{[]string{"-uuu", "x"}, func(c *Config) any {
			return [3]bool{c.Pipeline.Walk.NoIgnoreVCS, c.Pipeline.Walk.Hidden, c.Pipeline.Binary.Implicit == search.BinaryConvert}
		}, [3]bool{true, true, true}},
		{[]string{"-e", "-foo", "-e=bar", "path"}, func(c *Config) any { return c.Matcher.Patterns }, []string{"-foo", "bar"}},
		{[]string{"-ebar", "--", "-notflag"}, func(c *Config) any { return c.Paths }, []string{"-notflag"}},
		{[]string{"--files", "dir"}, func(c *Config) any { return c.Paths }, []string{"dir"}},
		{[]string{"-j1", "--sort", "path", "x"}, func(c *Config) any { return [2]any{c.Pipeline.Walk.Threads, c.Pipeline.Walk.Sort} }, [2]any{1, walker.SortPath}},
		{[]string{"--sort", "path", "--sortr", "modified", "x"}, func(c *Config) any { return [2]any{c.Pipeline.Walk.Sort, c.Pipeline.Walk.SortReverse} }, [2]any{walker.SortModified, true}},
		{[]string{"--max-filesize", "2K", "x"}, func(c *Config) any { return c.Pipeline.Walk.MaxFilesize }, int64(2048)},
		{[]string{"--context-separator", "", "-A1", "x"}, func(c *Config) any { return c.Printer.ContextSeparator != nil }, true},
		{[]string{"--no-context-separator", "-A1", "x"}, func(c *Config) any { return c.Printer.ContextSeparator == nil }, true},
		{[]string{"-g", "a", "--iglob", "B", "--glob-case-insensitive", "x"}, func(c *Config) any { return c.Pipeline.Walk.Globs }, []ignore.OverrideGlob{{Pattern: "a", CaseInsensitive: true}, {Pattern: "B", CaseInsensitive: true}}},
	}
	for _, tc := range cases {
		c, err := Load(tc.args, Env{})
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if got := tc.get(c); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: got %v, want %v", tc.args, got, tc.want)
		}
	}
}

// TestUsageErrors checks that what rg 15 rejects is rejected (it has no
// conflicting flags any more: of -c, -l, --json, --files, ... the last
// one wins, TestOverrides).
func TestUsageErrors(t *testing.T) {
	cases := [][]string{
		{},                        // no pattern
		{"--nope", "x"},           // unknown flag
		{"-A", "notanumber", "x"}, // bad number
		{"--color", "sometimes", "x"},
		{"-A"}, // missing value
	}
	// The messages are rg 15.2's, word for word.
	messages := map[string][]string{
		"rg: unrecognized flag --nope": {"--nope", "x"},
		// Values checked where the flag stands (texts recorded from rg 15.2).
		"rg: error parsing flag -E: grep config error: unknown encoding: foo":         {"-E", "foo", "--colors", "bad", "x"},
		"rg: error parsing flag --encoding: grep config error: unknown encoding: foo": {"--encoding=foo", "x"},
		"rg: error parsing flag -E: value is not valid UTF-8":                         {"-E", "\xff", "x"},
		"rg: error parsing flag --max-filesize: invalid size: invalid format for size '1Q', which should be a non-empty sequence of digits followed by an optional 'K', 'M' or 'G' suffix": {"--max-filesize", "1Q", "x"},
		"rg: error parsing flag --colors: unrecognized color name 'nope'. Choose from: black, blue, green, red, cyan, magenta, yellow, white":                                              {"--colors", "path:fg:nope", "--colors", "bad", "x"},
		"rg: unrecognized flag -Z":                                                                  {"-Z", "x"},
		"rg: missing value for flag -A: missing argument for option '-A'":                           {"-A"},
		"rg: missing value for flag --after-context: missing argument for option '--after-context'": {"--after-context"},
		"rg: error parsing flag -A: value is not a valid number: invalid digit found in string":     {"-Ax", "a"},
		"rg: error parsing flag --color: choice 'bad' is unrecognized":                              {"--color=bad", "a"},
		"rg: invalid CLI arguments: unexpected argument for option '--stats': \"x\"":                {"--stats=x", "a"},
		"rg: ripgrep requires at least one pattern to execute a search":                             {},
	}
	for want, args := range messages {
		if _, err := Load(args, Env{}); err == nil || "rg: "+err.Error() != want {
			t.Errorf("%q: got %v, want %s", args, err, want)
		}
	}
	for _, args := range cases {
		if _, err := Load(args, Env{}); err == nil {
			t.Errorf("%q: expected an error", args)
		}
	}
}

func TestUnescape(t *testing.T) {
	cases := map[string]string{`a\tb`: "a\tb", `\x41\n`: "A\n", `\0`: "\x00", `\q`: `\q`, ``: ``, `\\`: `\`}
	for in, want := range cases {
		if got := string(Unescape(in)); got != want {
			t.Errorf("Unescape(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHelpCoversFlags: every flag of the table has a help line.
func TestHelpCoversFlags(t *testing.T) {
	for _, d := range flagTable {
		if _, ok := flagHelp[d.long]; ok {
			continue
		}
		if strings.HasPrefix(d.long, "no-") || strings.HasPrefix(d.long, "ignore") || d.long == "trace" || d.long == "messages" || d.long == "unicode" || d.long == "pcre2-unicode" || d.long == "require-git" {
			continue // negations are described with the flag they undo
		}
		t.Errorf("--%s has no help line", d.long)
	}
}

// TestConfigFile: RIPGREP_CONFIG_PATH arguments come first (trimmed,
// comments and blank lines skipped), --no-config turns them off, and an
// unreadable file is a warning, not an error.
func TestConfigFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rgrc")
	os.WriteFile(path, []byte("# defaults\n  --smart-case  \n\n--max-columns=5\n"), 0o644)
	t.Setenv(ConfigEnv, path)
	c, err := Load([]string{"x"}, Env{})
	if err != nil || c.Matcher.Case != matcher.Smart || c.Printer.MaxColumns != 5 {
		t.Fatalf("config not applied: %v %+v", err, c)
	}
	c, _ = Load([]string{"-s", "x"}, Env{}) // the command line comes after, and wins
	if c.Matcher.Case != matcher.Sensitive {
		t.Fatal("command line did not override the config file")
	}
	c, _ = Load([]string{"--no-config", "x"}, Env{})
	if c.Matcher.Case != matcher.Sensitive || c.Printer.MaxColumns != 0 {
		t.Fatal("--no-config did not turn the file off")
	}
	t.Setenv(ConfigEnv, filepath.Join(dir, "missing"))
	c, err = Load([]string{"x"}, Env{})
	if err != nil || len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "No such file or directory") {
		t.Fatalf("unreadable config: %v %v", err, c.Warnings)
	}
}

// TestUnsupported: what evgrep cannot do is an error, never ignored.
func TestUnsupported(t *testing.T) {
	for _, args := range [][]string{{"--pre", "cat", "x"}} {
		if _, err := Load(args, Env{}); err == nil {
			t.Errorf("%q: expected an error", args)
		}
	}
	if _, err := Load([]string{"--pre", "", "x"}, Env{}); err != nil {
		t.Errorf("an empty --pre disables preprocessing in rg: %v", err)
	}
}

// TestPatternFileErrorKeepsCause checks rg's text for an unreadable -f file
// and that the error still is the errno underneath.
func TestPatternFileErrorKeepsCause(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	_, err := Load([]string{"-f", missing}, Env{})
	if err == nil {
		t.Fatal("no error")
	}
	if want := missing + ": No such file or directory (os error 2)"; err.Error() != want {
		t.Errorf("text %q, want %q", err, want)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("errors.Is(%v, fs.ErrNotExist) is false", err)
	}
}

// TestEngine: the last of -P, --no-pcre2, --auto-hybrid-regex,
// --no-auto-hybrid-regex and --engine decides the engine, as in rg 15.
func TestEngine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want Engine
	}{
		{[]string{"x"}, EngineDefault},
		{[]string{"-P", "x"}, EnginePCRE2},
		{[]string{"--pcre2", "--pcre2", "x"}, EnginePCRE2},
		{[]string{"-P", "--no-pcre2", "x"}, EngineDefault},
		{[]string{"--pcre2", "--no-pcre2", "--auto-hybrid-regex", "x"}, EngineAuto},
		{[]string{"--auto-hybrid-regex", "--no-auto-hybrid-regex", "x"}, EngineDefault},
		{[]string{"--auto-hybrid-regex", "-P", "x"}, EnginePCRE2},
		{[]string{"--engine", "pcre2", "x"}, EnginePCRE2},
		{[]string{"--engine", "auto", "x"}, EngineAuto},
		{[]string{"-P", "--engine", "default", "x"}, EngineDefault},
		{[]string{"--engine", "pcre2", "--no-pcre2", "x"}, EngineDefault},
		{[]string{"--engine", "default", "--auto-hybrid-regex", "x"}, EngineAuto},
	} {
		c, err := Load(tc.args, Env{})
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if c.Engine != tc.want {
			t.Errorf("%q: engine %d, want %d", tc.args, c.Engine, tc.want)
		}
	}
}
