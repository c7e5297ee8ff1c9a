package matcher

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// rgSizeCases are ripgrep 15.2.0's answers (accepted, or "compiled regex
// exceeds size limit of N" with exit 2) for patterns on both sides of the
// size limit: recorded with `rg --regex-size-limit LIMIT -e PATTERN`, and
// checked again against /opt/rg15/rg by TestSizeLimitRg15 where it exists.
// Each template's boundary was found by bisection with rg 15; the rows are
// the two counts below it and the two above.
var rgSizeCases = []struct {
	pat   string
	limit int
	ok    bool
}{
	// The patterns at the default limit: rg 15 (not rg 13)
	// accepts \w{1000}.
	{`(\w{10000})`, DefaultSizeLimit, false},
	{`(\w{10}){1000}`, DefaultSizeLimit, false},
	{`(\w{100}){100}`, DefaultSizeLimit, false},
	{`\w{1000}`, DefaultSizeLimit, true},
	{`\w{2098}`, DefaultSizeLimit, true},
	{`\w{2099}`, DefaultSizeLimit, false},
	{`(\w{10}){209}`, DefaultSizeLimit, true},
	{`(\w{10}){210}`, DefaultSizeLimit, false},
	{`(\w{100}){20}`, DefaultSizeLimit, true},
	{`(\w{100}){21}`, DefaultSizeLimit, false},
	{`\w{19}`, 1 << 20, true},
	{`\w{20}`, 1 << 20, true},
	{`\w{21}`, 1 << 20, false},
	{`\w{22}`, 1 << 20, false},
	{`(\w{19})`, 1 << 20, true},
	{`(\w{20})`, 1 << 20, true},
	{`(\w{21})`, 1 << 20, false},
	{`(\w{22})`, 1 << 20, false},
	{`(\w{5}){3}`, 1 << 20, true},
	{`(\w{5}){4}`, 1 << 20, true},
	{`(\w{5}){5}`, 1 << 20, false},
	{`(\w{5}){6}`, 1 << 20, false},
	{`\w+\w{18}`, 1 << 20, true},
	{`\w+\w{19}`, 1 << 20, true},
	{`\w+\w{20}`, 1 << 20, false},
	{`\w+\w{21}`, 1 << 20, false},
	{`a{32760}`, 1 << 20, true},
	{`a{32761}`, 1 << 20, true},
	{`a{32762}`, 1 << 20, false},
	{`a{32763}`, 1 << 20, false},
	{`(a){10919}`, 1 << 20, true},
	{`(a){10920}`, 1 << 20, true},
	{`(a){10921}`, 1 << 20, false},
	{`(a){10922}`, 1 << 20, false},
	{`\d{203}`, 1 << 20, true},
	{`\d{204}`, 1 << 20, true},
	{`\d{205}`, 1 << 20, false},
	{`\d{206}`, 1 << 20, false},
	{`.{1047}`, 1 << 20, true},
	{`.{1048}`, 1 << 20, true},
	{`.{1049}`, 1 << 20, false},
	{`.{1050}`, 1 << 20, false},
	{`(?i)a{13103}`, 1 << 20, true},
	{`(?i)a{13104}`, 1 << 20, true},
	{`(?i)a{13105}`, 1 << 20, false},
	{`(?i)a{13106}`, 1 << 20, false},
	{`[a-z]{14559}`, 1 << 20, true},
	{`[a-z]{14560}`, 1 << 20, true},
	{`[a-z]{14561}`, 1 << 20, false},
	{`[a-z]{14562}`, 1 << 20, false},
	{`\w{1,19}`, 1 << 20, true},
	{`\w{1,20}`, 1 << 20, true},
	{`\w{1,21}`, 1 << 20, false},
	{`\w{1,22}`, 1 << 20, false},
	{`(?:\w|-)*{19}`, 1 << 20, true},
	{`(?:\w|-)*{20}`, 1 << 20, true},
	{`(?:\w|-)*{21}`, 1 << 20, false},
	{`(?:\w|-)*{22}`, 1 << 20, false},
	{`\s{1461}`, 1 << 20, true},
	{`\s{1462}`, 1 << 20, true},
	{`\s{1463}`, 1 << 20, false},
	{`\s{1464}`, 1 << 20, false},
	{`x\w{19}y`, 1 << 20, true},
	{`x\w{20}y`, 1 << 20, true},
	{`x\w{21}y`, 1 << 20, false},
	{`x\w{22}y`, 1 << 20, false},
	{`\b\w{19}\b`, 1 << 20, true},
	{`\b\w{20}\b`, 1 << 20, true},
	{`\b\w{21}\b`, 1 << 20, false},
	{`\b\w{22}\b`, 1 << 20, false},
	{`^\w{19}$`, 1 << 20, true},
	{`^\w{20}$`, 1 << 20, true},
	{`^\w{21}$`, 1 << 20, false},
	{`^\w{22}$`, 1 << 20, false},
	{`(\w|\d){19}`, 1 << 20, true},
	{`(\w|\d){20}`, 1 << 20, true},
	{`(\w|\d){21}`, 1 << 20, false},
	{`(\w|\d){22}`, 1 << 20, false},
	{`\w*?{19}`, 1 << 20, true},
	{`\w*?{20}`, 1 << 20, true},
	{`\w*?{21}`, 1 << 20, false},
	{`\w*?{22}`, 1 << 20, false},
	{`(?i)\w{19}`, 1 << 20, true},
	{`(?i)\w{20}`, 1 << 20, true},
	{`(?i)\w{21}`, 1 << 20, false},
	{`(?i)\w{22}`, 1 << 20, false},
}

// TestSizeLimitGolden checks rg 15's recorded answers against the size
// rule (what Compile applies to the translated pattern, without the line
// terminator, as rg searches lines).
func TestSizeLimitGolden(t *testing.T) {
	for _, c := range rgSizeCases {
		tree, perr := parsePattern(c.pat)
		if perr != nil {
			t.Fatalf("%s: %v", c.pat, perr)
		}
		h, perr := translate(tree, flags{m: true, u: true})
		if perr != nil {
			t.Fatalf("%s: %v", c.pat, perr)
		}
		if perr := stripTerm(h, '\n'); perr != nil {
			t.Fatalf("%s: %v", c.pat, perr)
		}
		_, err := checkRgSize(h, false, c.limit)
		want := "compiled regex exceeds size limit of " + strconv.Itoa(c.limit)
		var me *Error
		switch {
		case c.ok && err != nil:
			t.Errorf("%s (limit %d): rg 15 accepts it, got %v", c.pat, c.limit, err)
		case !c.ok && (err == nil || !errors.As(err, &me) || err.Error() != want):
			t.Errorf("%s (limit %d): got %v, want %q", c.pat, c.limit, err, want)
		}
	}
}

// TestSizeLimitCompile: the patterns that made the VM compiler panic are
// rejected by Compile with rg 15's message, and --regex-size-limit moves
// the limit.
func TestSizeLimitCompile(t *testing.T) {
	for _, c := range []struct {
		pat   string
		limit int
		err   string
	}{
		{`(\w{10000})`, 0, "compiled regex exceeds size limit of 104857600"},
		{`(\w{10}){1000}`, 0, "compiled regex exceeds size limit of 104857600"},
		{`(\w{100}){100}`, 0, "compiled regex exceeds size limit of 104857600"},
		{`(?:\w{100}){100}x`, 0, "compiled regex exceeds size limit of 104857600"},
		{`\w{30}`, 1 << 20, "compiled regex exceeds size limit of 1048576"},
		{`\w{20}`, 1 << 20, ""},
		{`a{150000}`, 0, ""},
	} {
		_, err := Compile(Options{Patterns: []string{c.pat}, LineTerminator: '\n', SizeLimit: c.limit})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.err {
			t.Errorf("%s: got %q, want %q", c.pat, got, c.err)
		}
	}
}

// TestSizeLimitRg15 confirms the recorded answers with rg 15 itself.
func TestSizeLimitRg15(t *testing.T) {
	const rg15 = "/opt/rg15/rg"
	if _, err := os.Stat(rg15); err != nil {
		t.Skip("no ripgrep 15 at " + rg15)
	}
	if testing.Short() {
		t.Skip("slow")
	}
	for _, c := range rgSizeCases {
		cmd := exec.Command(rg15, "--regex-size-limit", strconv.Itoa(c.limit), "-e", c.pat, os.DevNull)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		ok := code != 2
		if ok != c.ok {
			t.Errorf("%s (limit %d): rg 15 exits %d (%s), recorded ok=%v", c.pat, c.limit, code, strings.TrimSpace(stderr.String()), c.ok)
		}
		if !ok && !strings.Contains(stderr.String(), "compiled regex exceeds size limit of "+strconv.Itoa(c.limit)) {
			t.Errorf("%s: rg 15 says %q", c.pat, stderr.String())
		}
	}
}

// TestRE2NeverLogs runs patterns whose RE2 program used to be too big for
// RE2's DFA ("DFA out of memory", logged by RE2 itself to the process's
// stderr, which go-re2 gives no way to silence) in a child process, on
// non-ASCII text, and checks that nothing reaches stderr.
func TestRE2NeverLogs(t *testing.T) {
	if os.Getenv("EVGREP_RE2_CHILD") == "1" {
		re2Child(t)
		return
	}
	if testing.Short() {
		t.Skip("slow")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRE2NeverLogs$", "-test.v")
	cmd.Env = append(os.Environ(), "EVGREP_RE2_CHILD=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil || !strings.Contains(stdout.String(), "--- PASS") {
		t.Fatalf("child: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr is not empty:\n%s", stderr.String())
	}
}

func re2Child(t *testing.T) {
	line := bytes.Repeat([]byte("héllowörldçàéèñøåæœßþðłżźśąęćńóüöäëï_ "), 200)
	for _, pat := range []string{`\w{1000}`, `(\w{10}){100}`, `(?:\w{100}){10}x`, `[\w\d\s]{1000}`, `\w{300}`} {
		m, err := Compile(Options{Patterns: []string{pat}, LineTerminator: '\n'})
		if err != nil {
			t.Fatalf("%s: %v", pat, err)
		}
		if m.reReady != nil {
			<-m.reReady
		}
		m.IsMatch(line)
		m.Occurrences(line, nil)
		buf := append(append([]byte{}, line...), '\n')
		m.NextLine(buf, 0)
	}
	// Just under re2InstLimit RE2 has the program: a long run of word
	// characters (many DFA states) must not make its DFA give up.
	word := bytes.Repeat([]byte("éàöü"), 30000)
	for _, pat := range []string{`\w{160}`, `(\w{10}){16}x`} {
		m, err := Compile(Options{Patterns: []string{pat}, LineTerminator: '\n'})
		if err != nil {
			t.Fatalf("%s: %v", pat, err)
		}
		if m.reReady != nil {
			<-m.reReady
		}
		m.IsMatch(word)
		m.Occurrences(word, nil)
	}
	for _, pat := range []string{`(\w{10000})`, `(\w{10}){1000}`, `(\w{100}){100}`} {
		if _, err := Compile(Options{Patterns: []string{pat}, LineTerminator: '\n'}); err == nil {
			t.Errorf("%s: accepted", pat)
		}
	}
}
