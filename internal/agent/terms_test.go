package agent

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/snapshot"
)

// termOcc is one occurrence as the brute-force reference lists it.
type termOcc struct {
	Term string
	Path string
	Line int
	Col  int
}

// bruteTerms lists every occurrence of every (case-sensitive) term in
// files, each term's occurrences non-overlapping left to right, in item
// order: term, then path, then byte.
func bruteTerms(files map[string]string, terms []string) []termOcc {
	var out []termOcc
	paths := slices.Sorted(func(yield func(string) bool) {
		for p := range files {
			if !yield(p) {
				return
			}
		}
	})
	for _, term := range terms {
		for _, p := range paths {
			for n, line := range strings.Split(files[p], "\n") {
				for at := 0; ; {
					i := strings.Index(line[at:], term)
					if i < 0 {
						break
					}
					out = append(out, termOcc{term, p, n + 1, at + i + 1})
					at += i + len(term)
				}
			}
		}
	}
	return out
}

// termsFixture is a tree whose occurrences are known: overlapping terms
// (he/she/hers), a term inside another (Get/GetX), long lines (excerpts)
// and many files, enough for dozens of pages.
func termsFixture() map[string]string {
	files := map[string]string{}
	for i := 0; i < 24; i++ {
		var b strings.Builder
		for j := 0; j <= i%7; j++ {
			fmt.Fprintf(&b, "ushers said hers, she said Get %d.%d GetX\n", i, j)
			fmt.Fprintf(&b, "nothing on this line %d\n", j)
		}
		if i%5 == 0 {
			b.WriteString(strings.Repeat("x", 700) + " she " + strings.Repeat("y", 700) + "\n")
		}
		files[fmt.Sprintf("d%d/f%02d.txt", i%3, i)] = b.String()
	}
	files["plain.txt"] = "no term at all\n"
	return files
}

// walkTerms pages through a multi-term answer and returns every item, and
// checks each page's bounds: at most 30 items, text and details each
// within 16 KiB.
func walkTerms(t *testing.T, env Env, first *Answer) []TermItemJSON {
	t.Helper()
	var items []TermItemJSON
	a := first
	for pages := 0; ; pages++ {
		if pages > 10000 {
			t.Fatal("the cursor walk does not end")
		}
		d := a.Details
		if d.Terms == nil || d.Page == nil || d.Page.Kind != string(snapshot.KindItems) {
			t.Fatalf("page %d is not a terms page:\n%s", pages, a.Text)
		}
		if n := len(d.Terms.Items); n > termsPageItems || n == 0 && d.Page.Total > 0 {
			t.Fatalf("page %d holds %d items", pages, n)
		}
		dj, _ := json.Marshal(d)
		if len(a.Text) > responseBudget || len(dj) > responseBudget {
			t.Fatalf("page %d: text %d bytes, details %d bytes: over %d", pages, len(a.Text), len(dj), responseBudget)
		}
		for i, it := range d.Terms.Items {
			if it.Item != d.Page.Offset+i+1 {
				t.Fatalf("page %d: item %d numbered %d", pages, d.Page.Offset+i+1, it.Item)
			}
		}
		items = append(items, d.Terms.Items...)
		if d.Cursor == "" {
			if !d.Page.Done {
				t.Fatalf("page %d: no cursor, not done", pages)
			}
			break
		}
		a = ask(t, env, fmt.Sprintf(`{"cursor":%q}`, d.Cursor))
	}
	return items
}

// TestTermsCursorWalk pages through every item of a multi-term answer:
// the items are exactly the reference's occurrences, each once, in term,
// path, byte order (so pages never repeat or drop one), and the per-term
// counts are those of the items.
func TestTermsCursorWalk(t *testing.T) {
	files := termsFixture()
	root := tree(t, files)
	terms := []string{"she", "he", "hers", "Get", "GetX", "said"}
	for _, store := range []string{"memory", "disk"} {
		t.Run(store, func(t *testing.T) {
			env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
			if store == "disk" {
				env.Store = snapshot.NewStore(t.TempDir())
			}
			req, _ := json.Marshal(map[string]any{"terms": terms, "ignoreCase": false})
			first := ask(t, env, string(req))
			items := walkTerms(t, env, first)
			want := bruteTerms(files, terms)
			var got []termOcc
			for _, it := range items {
				got = append(got, termOcc{it.Term, it.Path, it.Line, it.Column})
			}
			if !slices.Equal(got, want) {
				t.Fatalf("walked %d items, the reference lists %d; first difference at %d", len(got), len(want), firstDiff(got, want))
			}
			counts := map[string][3]int64{}
			lines, filesOf := map[string]bool{}, map[string]bool{}
			for _, o := range want {
				c := counts[o.Term]
				c[1]++
				if k := fmt.Sprint(o.Term, o.Path, o.Line); !lines[k] {
					lines[k] = true
					c[0]++
				}
				if k := o.Term + "\x00" + o.Path; !filesOf[k] {
					filesOf[k] = true
					c[2]++
				}
				counts[o.Term] = c
			}
			tj := first.Details.Terms
			if len(tj.Terms) != len(terms) || tj.Found != nil || first.Details.Status != "complete" {
				t.Fatalf("first page: %+v, status %s", tj, first.Details.Status)
			}
			for i, c := range tj.Terms {
				if c.Term != terms[i] || [3]int64{c.Lines, c.Occurrences, c.Files} != counts[c.Term] {
					t.Errorf("term %q: %d %d %d, want %v", c.Term, c.Lines, c.Occurrences, c.Files, counts[c.Term])
				}
			}
			if tj.FilesKept != 24 || tj.FilesSearched != 25 {
				t.Errorf("kept %d of %d files, want 24 of 25", tj.FilesKept, tj.FilesSearched)
			}
		})
	}
}

func firstDiff(a, b []termOcc) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestTermsMatchRules checks match all and none through the agent: all
// keeps the files holding every term (their occurrences of every term),
// none lists the files holding no term, by path; smart case applies to
// each term alone.
func TestTermsMatchRules(t *testing.T) {
	files := map[string]string{
		"a.go":    "Alpha beta\n",
		"b.go":    "alpha\n",
		"c.go":    "BETA\n",
		"d.go":    "gamma\n",
		"e/f.txt": "nothing\n",
	}
	root := tree(t, files)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	paths := func(a *Answer) []string {
		var out []string
		for _, it := range a.Details.Terms.Items {
			out = append(out, it.Path)
		}
		return slices.Compact(out)
	}
	cases := []struct {
		req  string
		want []string
	}{
		// alpha folds (smart case), Beta does not.
		{`{"terms":["alpha","Beta"]}`, []string{"a.go", "b.go"}},
		{`{"terms":["alpha","beta"],"match":"all"}`, []string{"a.go", "a.go"}},
		{`{"terms":["alpha","beta"],"match":"none"}`, []string{"d.go", "e/f.txt"}},
		{`{"terms":["alpha","beta"],"match":"none","ignoreCase":false}`, []string{"c.go", "d.go", "e/f.txt"}},
		{`{"terms":["alpha","beta"],"match":"all","glob":"*.txt"}`, nil},
		{`{"terms":["alpha","beta"],"match":"any","paths":["b.go","c.go"]}`, []string{"b.go", "c.go"}},
	}
	for _, c := range cases {
		a := ask(t, env, c.req)
		got := paths(a)
		want := slices.Compact(slices.Clone(c.want))
		if !slices.Equal(got, want) {
			t.Errorf("%s: items in %v, want %v\n%s", c.req, got, want, a.Text)
		}
	}
	// match all: a.go holds both; its two items are one of each term.
	a := ask(t, env, `{"terms":["alpha","beta"],"match":"all"}`)
	if n := len(a.Details.Terms.Items); n != 2 || a.Details.Terms.FilesKept != 1 {
		t.Errorf("match all: %d items in %d files, want 2 in 1\n%s", n, a.Details.Terms.FilesKept, a.Text)
	}
	a = ask(t, env, `{"terms":["alpha","beta"],"match":"none"}`)
	if a.Details.Terms.FilesKept != 2 || a.Details.Terms.FilesSearched != 5 || a.Details.Terms.Terms != nil {
		t.Errorf("match none: %+v\n%s", a.Details.Terms, a.Text)
	}
}

// TestTermsPartial: beyond 50,000 items the answer is partial, keeps the
// first items in term order, derives its per-term counts from them and
// states the exact counts found.
func TestTermsPartial(t *testing.T) {
	root := tree(t, map[string]string{"big.txt": strings.Repeat("ab\n", 30000), "small.txt": "b a\n"})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"terms":["a","b"],"ignoreCase":false}`)
	tj := a.Details.Terms
	if a.Details.Status != "partial" || len(tj.Found) != 2 {
		t.Fatalf("status %s, found %+v\n%s", a.Details.Status, tj.Found, a.Text)
	}
	got := [2][3]int64{{tj.Terms[0].Lines, tj.Terms[0].Occurrences, tj.Terms[0].Files}, {tj.Terms[1].Lines, tj.Terms[1].Occurrences, tj.Terms[1].Files}}
	found := [2][3]int64{{tj.Found[0].Lines, tj.Found[0].Occurrences, tj.Found[0].Files}, {tj.Found[1].Lines, tj.Found[1].Occurrences, tj.Found[1].Files}}
	// Stored: all 30,001 a's, then the first 19,999 b's (big.txt's).
	if want := [2][3]int64{{30001, 30001, 2}, {19999, 19999, 1}}; got != want {
		t.Errorf("stored counts %v, want %v", got, want)
	}
	if want := [2][3]int64{{30001, 30001, 2}, {30001, 30001, 2}}; found != want {
		t.Errorf("found counts %v, want %v", found, want)
	}
	if !strings.Contains(a.Text, "partial") || a.Details.Page.Total != snapshot.MaxItems {
		t.Errorf("page total %d, text:\n%s", a.Details.Page.Total, a.Text)
	}
}

// TestTermsPolicy: Git internals and files behind the path policy are
// never read, whatever the terms.
func TestTermsPolicy(t *testing.T) {
	root := tree(t, map[string]string{
		"src.go":          "token here\n",
		".git/HEAD":       "ref: refs/heads/main\n",
		".git/config":     "token secret\n",
		".git/refs/x":     "token\n",
		".git/objects/ab": "token\n",
	})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"terms":["token","secret"]}`)
	for _, it := range a.Details.Terms.Items {
		if strings.HasPrefix(it.Path, ".git") {
			t.Errorf("item from %s\n%s", it.Path, a.Text)
		}
	}
	if strings.Contains(a.Text, "secret") && strings.Contains(a.Text, "token secret") {
		t.Errorf("the git config was shown:\n%s", a.Text)
	}
	failsWith(t, env, CodePathForbidden, fmt.Sprintf(`{"terms":["a","b"],"path":%q}`, filepath.Join(root, ".git")))
}

// TestTermsHostileRequests: bad term lists and field mixes are
// E_REQUEST_INVALID with one message, never a search.
func TestTermsHostileRequests(t *testing.T) {
	root := tree(t, map[string]string{"a.txt": "alpha\n"})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	many := make([]string, 65)
	for i := range many {
		many[i] = fmt.Sprintf("t%d", i)
	}
	enc := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	bad := []string{
		`{"terms":["a"]}`,
		`{"terms":[]}`, /* empty list: no terms field at all, pattern required */
		enc(map[string]any{"terms": many}),
		`{"terms":["a","a"]}`,
		`{"terms":["a",""]}`,
		`{"terms":["a","b\nc"]}`,
		`{"terms":["a","b\rc"]}`,
		`{"terms":["a","b\u0000c"]}`,
		enc(map[string]any{"terms": []string{"a", strings.Repeat("x", 257)}}),
		`{"terms":["a","b"],"pattern":"c"}`,
		`{"terms":["a","b"],"literal":true}`,
		`{"terms":["a","b"],"match":"some"}`,
		`{"match":"all","pattern":"x"}`,
		`{"terms":["a","b"],"mode":"matches"}`,
		`{"terms":["a","b"],"limit":5}`,
		`{"terms":["a","b"],"context":2}`,
		`{"terms":["a","b"],"cursor":"abc"}`,
		`{"terms":"a,b"}`,
		`{"terms":["a","b"],"rev":"HEAD"}`,
		`{"terms":["a","b"],"changedSince":"HEAD"}`,
	}
	for _, req := range bad {
		failsWith(t, env, CodeInvalidRequest, req)
	}
	// A terms cursor continues its items only.
	a := ask(t, env, `{"terms":["alpha","a"]}`)
	if a.Details.Cursor != "" {
		t.Fatalf("one page expected:\n%s", a.Text)
	}
	root2 := tree(t, termsFixture())
	env2 := Env{Store: snapshot.NewMemoryStore(), Cwd: root2}
	a = ask(t, env2, `{"terms":["she","he"]}`)
	if a.Details.Cursor == "" {
		t.Fatalf("no cursor:\n%s", a.Text)
	}
	for _, extra := range []string{`"mode":"matches"`, `"paths":["d0"]`, `"glob":"*.go"`, `"limit":3`} {
		failsWith(t, env2, string(snapshot.CodeWrongKind), fmt.Sprintf(`{"cursor":%q,%s}`, a.Details.Cursor, extra))
	}
}

// TestTermsManyTermsBounded: 64 terms over lines that hold many of them,
// with long paths: every page keeps its text and details within 16 KiB,
// and the walk still returns every item once.
func TestTermsManyTermsBounded(t *testing.T) {
	var terms []string
	for i := 0; i < 64; i++ {
		terms = append(terms, fmt.Sprintf("T%02d", i))
	}
	files := map[string]string{}
	long := strings.Repeat("segment/", 20)
	for i := 0; i < 6; i++ {
		var b strings.Builder
		for j := 0; j < 5; j++ {
			b.WriteString(strings.Join(terms, " ") + " " + strings.Repeat("z", 300) + "\n")
		}
		files[fmt.Sprintf("%sf%d.txt", long, i)] = b.String()
	}
	root := tree(t, files)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	first := ask(t, env, fmt.Sprintf(`{"terms":%s}`, mustJSON(terms)))
	items := walkTerms(t, env, first)
	if len(items) != 64*6*5 {
		t.Fatalf("walked %d items, want %d", len(items), 64*6*5)
	}
	if !sort.SliceIsSorted(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if a.Term != b.Term {
			return a.Term < b.Term // T00 … T63 sort as their index
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Start < b.Start
	}) {
		t.Fatal("items are not in term, path, byte order")
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
