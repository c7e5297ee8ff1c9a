package app

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/evgrep/evgrep/internal/testref"
)

// utf16Bytes encodes s as UTF-16 in the byte order asked for.
func utf16Bytes(s string, bigEndian bool) string {
	var b strings.Builder
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			b.WriteByte(byte(u >> 8))
			b.WriteByte(byte(u))
		} else {
			b.WriteByte(byte(u))
			b.WriteByte(byte(u >> 8))
		}
	}
	return b.String()
}

// transcodedTree holds UTF-16 files without a byte-order mark, searched
// with -E: one whose first line ends early and whose NUL lies past 4 KiB
// of the source but within rg's first 8 KiB read after it, and random
// text (ASCII and wider characters, long lines, NULs in some) from a
// fixed seed.
func transcodedTree() map[string]string {
	files := map[string]string{}
	var s strings.Builder
	s.WriteString("Sherlock")
	for s.Len() < 500 {
		s.WriteByte('a')
	}
	s.WriteByte('\n')
	for s.Len() < 3000 {
		s.WriteByte('b')
	}
	s.WriteByte(0)
	for s.Len() < 10000 {
		s.WriteByte('c')
	}
	s.WriteString("\nSherlock\n")
	files["enc/early.le"] = utf16Bytes(s.String(), false)
	files["enc/early.be"] = utf16Bytes(s.String(), true)
	rng := rand.New(rand.NewSource(23))
	for k := 0; k < 16; k++ {
		n := []int{3000, 20000, 70000, 150000}[k%4]
		var t strings.Builder
		for i := 0; i < n; i++ {
			switch r := rng.Float64(); {
			case r < 0.002:
				t.WriteByte('\n')
			case r < 0.003:
				t.WriteString("Sherlock")
			case r < 0.0035 && k%3 != 0:
				t.WriteByte(0)
			case r < 0.5:
				t.WriteRune(rune('a' + rng.Intn(26)))
			case r < 0.85:
				t.WriteRune(rune(0x100 + rng.Intn(0x700)))
			default:
				t.WriteRune(rune(0x800 + rng.Intn(0xD000)))
			}
		}
		ext := []string{"le", "be"}[k%2]
		data := utf16Bytes(t.String(), ext == "be")
		if k%5 == 0 {
			data = data[:len(data)-1] // an unfinished code unit at the end
		}
		files[fmt.Sprintf("enc/r%02d.%s", k, ext)] = data
	}
	return files
}

// walkTree holds text files with a NUL past rg's first buffer (item 3)
// and small files whose matches have context (item 4).
func walkTree(files map[string]string) {
	files["walk3/a.txt"] = "non matching first line\n" + strings.Repeat("Sherlock line\n", 10000) + "x\x00y\nSherlock\n"
	files["walk3/b.txt"] = "plain\nSherlock\n"
	files["walk3/d.txt"] = "non matching first line\n" + strings.Repeat("Sherlock line\n", 10000) + "xy\nSherlock\n"
	files["walk3/e.txt"] = strings.Repeat("Sherlock\n", 3) + "non matching line\n" + strings.Repeat("Sherlock line\n", 10000) + "x\x00y\nSherlock\n"
	files["walk3/f.txt"] = "Sherlock\n" + strings.Repeat("z line\n", 30000) + "x\x00y\n"
	files["walk4/b.txt"] = "plain\nSherlock\n"
	files["walk4/c.txt"] = "a\nSherlock\nb\n"
	files["walk4/d.txt"] = "nothing here\n"
	files["walk4/e/f.txt"] = "x\ny\nSherlock\nz\nSherlock\n"
	files["pcre/req.txt"] = "a_b-cError\nabxyz\nzzz\naabSS\nABaé1\nAbc\nfunc NewError() {}\nfunc (e *x) Error() string\n"
}

// issue23Case is one invocation; sorted compares stdout's lines sorted
// (a parallel walk prints files in any order).
type issue23Case struct {
	args   []string
	sorted bool
}

// walkCases are the invocations over walkTree.
func walkCases() []issue23Case {
	var cs []issue23Case
	// Item 3: a sink that stops (-l, -q) ends only the buffer in rg
	// 15.2's inverted search, and the kinds that want files without a
	// match read the whole file: a later NUL makes the file binary.
	for _, form := range [][]string{
		{"-l", "-v"}, {"-l", "-v", "-j1"}, {"-l", "-v", "--mmap"}, {"-l", "-v", "-A1"}, {"-l", "-v", "-m1"},
		{"-l"}, {"--files-without-match"}, {"--files-without-match", "-v"}, {"--files-without-match", "--mmap"},
		{"-c", "-v"}, {"-q", "-v"}, {"-q", "--files-without-match"}, {"-q", "--files-without-match", "-v"},
	} {
		cs = append(cs, issue23Case{args: append(append([]string{"--sort", "path"}, form...), "Sherlock", "walk3")})
	}
	for _, f := range []string{"a.txt", "e.txt", "f.txt"} {
		for _, form := range [][]string{{"--files-without-match"}, {"-q", "--files-without-match"}, {"-l", "-v"}, {"-q", "-v"}} {
			cs = append(cs, issue23Case{args: append(append([]string{}, form...), "Sherlock", "walk3", "-g", f)})
		}
	}
	// Item 4: rg's parallel search prints the statistics as one more
	// buffer, after a file separator it does not count.
	for _, form := range [][]string{
		{"-C1"}, {"-A1"}, {"-B1", "-n"}, {"-C1", "--heading"}, {"--heading"}, {"-C1", "--context-separator", "XX"},
		{"-C1", "--no-context-separator"}, {"-C1", "-j1"}, {"-C1", "--vimgrep"},
	} {
		args := append(append([]string{"--stats"}, form...), "Sherlock", "walk4")
		cs = append(cs, issue23Case{args: args, sorted: true})
		cs = append(cs, issue23Case{args: append(args[:len(args):len(args)], "-g", "c.txt"), sorted: true})
	}
	// PCRE2: a code unit PCRE2 records for alternatives that differ in
	// case only, and the prefilter (line skipping) for look-around,
	// possessive repetition and a scoped (?i) next to a negated class.
	for _, pat := range []string{
		`\x41\p{L}|a\X?`, `A\X|a\X`, `\x41\p{L}|a++`, `(?=\w)[^\s][^a-c](?i:A)+`, `(?<=func )\w+Error\b`, `(?<!\w)Error(?=\()`,
	} {
		cs = append(cs, issue23Case{args: []string{"-n", "-P", pat, "pcre"}})
	}
	cs = append(cs, issue23Case{args: []string{"-n", "--engine", "auto", `(?<=func )\w+Error\b`, "pcre"}})
	return cs
}

// issue23Cases are the invocations of TestRG15Issue23.
func issue23Cases() []issue23Case {
	cs := walkCases()
	for _, f := range []string{"early", "r00", "r01", "r02", "r03", "r04", "r05", "r06", "r07", "r08", "r09", "r10", "r11", "r12", "r13", "r14", "r15"} {
		enc, ext := "utf-16le", "le"
		if f == "early" || f[2]%2 == 1 {
			enc, ext = "utf-16be", "be"
		}
		if f == "early" {
			cs = append(cs, issue23Case{args: []string{"--json", "-E", "utf-16le", "Sherlock", "enc", "-g", "early.le"}},
				issue23Case{args: []string{"--json", "-E", "utf-16be", "Sherlock", "enc", "-g", "early.be"}})
		}
		// Counts and bytes searched tell where the search stopped; the
		// lines themselves are long.
		for _, form := range [][]string{{"-c", "--stats"}, {"-n", "-o"}, {"-c", "--stats", "--mmap"}} {
			args := append(append([]string{}, form...), "-E", enc, "Sherlock", "enc", "-g", f+"."+ext)
			cs = append(cs, issue23Case{args: args})
		}
		// Named, the file is searched with NULs turned into line ends
		// (the warning names the first NUL's offset).
		cs = append(cs, issue23Case{args: []string{"-n", "-o", "-E", enc, "Sherlock", "enc/" + f + "." + ext}})
	}
	return cs
}

// TestRG15Issue23 compares evgrep with rg 15.2 (live, else its recorded
// answers) on issue 23's exactness items: binary detection in transcoded
// input is done in rg's buffer steps (item 2), -l/-q with -v and the
// without-match kinds read on to a later NUL (item 3), and the parallel
// search's statistics come after one more file separator (item 4); and
// PCRE2's line selection (required code unit, prefilter).
func TestRG15Issue23(t *testing.T) {
	files := transcodedTree()
	walkTree(files)
	root := writeTree(t, files)
	vars := map[string]string{"ROOT": root}
	g := testref.OpenPinned(t, rg15)
	input := testref.Tree(vars, root)
	for _, tc := range issue23Cases() {
		args := tc.args
		name := strings.Join(args, " ")
		t.Run(name, func(t *testing.T) {
			canon := func(o testref.Output) testref.Output {
				o.Stdout = []byte(normalize15(o.Stdout))
				if tc.sorted {
					o = testref.SortLines(o)
				}
				return o
			}
			out := g.Run(t, testref.Case{
				Name: name, Args: args, Dir: root,
				Env: []string{"RIPGREP_CONFIG_PATH="}, Vars: vars, Input: input, Canon: canon,
			})
			out = canon(out)
			want := result{out.Code, string(out.Stdout), len(out.Stderr) > 0}
			got := runEvgrep(t, root, args, "")
			got.stdout = string(canon(testref.Output{Stdout: []byte(got.stdout)}).Stdout)
			if got != want {
				t.Errorf("rg %q\n got: code=%d stderr=%v\n%.2000q\nwant: code=%d stderr=%v\n%.2000q", args, got.code, got.stderr, got.stdout, want.code, want.stderr, want.stdout)
			}
		})
	}
}
