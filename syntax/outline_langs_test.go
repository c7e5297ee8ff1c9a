//go:build cgo

package syntax

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// handOutlines are the outlines of the fixtures of the later languages,
// written by hand from the sources (not generated): one line per
// declaration, "FIRST-LAST kind name", with " +" when it is exported;
// members indented by four spaces. A declaration's lines include the
// comments, attributes and annotations directly above it.
var handOutlines = map[string]string{
	"deploy.sh": `
5-5 const VERSION
6-6 var DEPLOY_ROOT +
7-7 const MAX_RETRIES
8-8 var log_file
10-13 function log +
15-23 function _retry
25-31 function upload +
33-33 function restart +
35-41 function main +
`,
	"Inventory.cs": `
4-5 namespace Shop.Stock +
6-7 record Sku +
9-9 type Changed +
11-11 enum Unit +
13-17 interface IStore +
    15-15 method Find +
    16-16 property Count +
19-52 class Inventory +
    22-22 const MaxItems +
    23-23 var items
    25-25 var OnChange +
    27-27 method Inventory +
    29-29 property Count +
    31-35 method Find +
    37-37 method Evict
    39-45 method Hash
    47-51 struct Slot
54-57 class Audit
    56-56 method Log +
`,
	"Cache.kt": `
5-5 const DEFAULT_TTL +
6-6 property log
8-8 type Key +
10-11 class Entry +
13-16 interface Store +
    14-14 method get +
    15-15 method put +
18-18 enum Policy +
20-43 class Cache +
    22-22 property entries
    23-23 property hits +
    26-30 method get +
    32-34 method put +
    36-36 method size
    38-38 method now
    40-42 object Companion +
45-49 object Registry +
    46-48 method register +
51-53 function describe +
55-55 function helper
`,
	"Player.swift": `
3-3 property maxVolume +
4-4 property sessionCount
6-10 interface Playable +
    8-8 property title +
    9-9 method play +
12-12 type Seconds +
14-22 enum State +
    18-21 property isActive
24-46 class Player +
    26-26 property title +
    27-27 property state
    29-31 method init +
    33-35 method deinit
    37-39 method play +
    41-41 method pause
    43-45 method reset
48-51 struct Track
    49-49 property name
    50-50 property length +
53-57 extension Player +
    54-56 method describe +
59-61 function helper
`,
	"Ledger.scala": `
5-8 class Money +
    7-7 method + +
10-13 trait Entry +
    11-11 method amount +
    12-12 method describe +
15-25 object Ledger +
    16-16 property Currency +
    17-17 property counter
    19-19 method apply +
    21-24 method next
27-40 class Ledger +
    28-28 type Filter +
    30-30 method iterator +
    32-33 method total +
    35-37 method audit
    39-39 method hidden
42-44 enum Color +
`,
	"Mailer.php": `
5-5 namespace App\Mail +
9-9 const DEFAULT_FROM +
11-17 function format_address +
19-22 interface Sender +
    21-21 method send +
24-32 trait Retries +
    26-26 property $attempts
    28-31 method retry
34-43 enum Priority +
    39-42 method label +
45-72 class Mailer +
    50-50 const VERSION +
    51-51 property $transport
    52-52 property $from +
    54-57 method __construct +
    59-62 method send +
    64-64 method log
    66-66 method legacy +
    68-71 method create +
`,
	"queue.lua": `
1-2 var Queue +
5-5 const MAX
6-6 var DEBUG +
8-11 function Queue.new +
13-19 method Queue:push +
21-26 method Queue:pop +
28-30 function trace
32-34 function size
36-40 function dump +
`,
	"theme.css": `
3-6 rule :root +
    4-4 var --accent +
    5-5 var --gap +
8-13 rule .button, .button:hover +
15-15 rule #header > nav a +
17-23 at-rule @media (max-width: 600px) +
    18-20 rule .button +
    22-22 rule #header +
25-28 at-rule @keyframes pulse +
30-33 at-rule @font-face +
`,
	"page.html": `
6-8 style 
11-16 element header#top +
    13-15 element nav#menu +
18-21 element section#orders +
    20-20 element table#order-table +
22-24 element form#search +
26-26 script app.js
27-29 script 
`,
	"deploy.yaml": `
1-2 key apiVersion +
3-3 key kind +
4-7 key metadata +
    5-5 key name +
    6-7 key labels +
8-16 key spec +
    9-9 key replicas +
    10-16 key template +
18-19 key apiVersion +
20-20 key kind +
21-22 key metadata +
    22-22 key name +
23-24 key defaults +
    24-24 key timeout +
`,
}

// TestHandOutlines compares each later language's fixture outline with
// the hand-written one, and checks that there is one for every later
// language.
func TestHandOutlines(t *testing.T) {
	seen := map[Language]bool{}
	for name, want := range handOutlines {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(fixtureDir, name))
			if err != nil {
				t.Fatal(err)
			}
			lang, ok := Detect(name, src)
			if !ok {
				t.Fatalf("no language for %s", name)
			}
			seen[lang] = true
			if he, _ := HasErrors(lang, src); he {
				t.Errorf("%s has syntax errors", name)
			}
			ol, err := Outline(lang, src)
			if err != nil {
				t.Fatal(err)
			}
			var sb strings.Builder
			sb.WriteByte('\n')
			line := func(indent string, d Decl) {
				fmt.Fprintf(&sb, "%s%d-%d %s %s", indent, d.StartLine, d.EndLine, d.Kind, d.Name)
				if d.Exported {
					sb.WriteString(" +")
				}
				sb.WriteByte('\n')
			}
			for _, d := range ol {
				line("", d)
				for _, c := range d.Children {
					line("    ", c)
				}
			}
			if got := sb.String(); got != want {
				t.Errorf("outline of %s:\n%s", name, diffLines(want, got))
			}
		})
	}
	for _, l := range []Language{Bash, CSharp, CSS, HTML, Kotlin, Lua, PHP, Scala, Swift, YAML} {
		if !seen[l] {
			t.Errorf("no hand-written outline for %s", l)
		}
	}
}
