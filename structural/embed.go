package structural

import (
	"bytes"
	"path"
	"strings"

	"github.com/evgrep/evgrep/syntax"
)

// htmlExts are the extensions of HTML files (ast-grep's list for html).
var htmlExts = []string{"html", "htm", "xhtml"}

// embedsIn reports whether HTML files embed blocks of the language, which
// a search of it then reads as ast-grep does: the <script> blocks (of
// JavaScript unless their `lang` attribute names another language) and
// the <style> blocks (of CSS unless `lang` says otherwise).
func (l *Lang) embedsIn() bool {
	switch l.Name {
	case syntax.JavaScript, syntax.TypeScript, syntax.TSX, syntax.CSS:
		return true
	}
	return false
}

// IsHTMLHost reports whether the file at path p is an HTML file searched
// for the blocks of l it embeds (not parsed as a whole with l's grammar).
func (l *Lang) IsHTMLHost(p string) bool {
	return l.embedsIn() && hasExt(p, htmlExts)
}

func hasExt(p string, exts []string) bool {
	base := path.Base(strings.ReplaceAll(p, "\\", "/"))
	i := strings.LastIndexByte(base, '.')
	if i < 0 {
		return false
	}
	ext := base[i+1:]
	for _, e := range exts {
		if e == ext {
			return true
		}
	}
	return false
}

// ParseFile parses the source of the file at path p for a search of l:
// with l's grammar (syntax.ParseCode), or, for an HTML file that embeds
// l, each of its blocks of l as a document of its own, with the offsets
// of the file (syntax.ParseRegions; a file without such blocks gives a
// tree without nodes).
func (l *Lang) ParseFile(p string, src []byte) (*syntax.Tree, error) {
	if !l.IsHTMLHost(p) {
		return syntax.ParseCode(l.Name, src)
	}
	page, err := syntax.ParseFlatOnce(syntax.HTML, src)
	if err != nil {
		return nil, err
	}
	return syntax.ParseRegions(l.Name, src, l.blocksIn(page))
}

// blocksIn are the byte ranges of the raw text of the page's script and
// style elements whose language is l, in order.
func (l *Lang) blocksIn(page *syntax.Tree) [][2]int {
	var out [][2]int
	for i := range page.Nodes {
		def := ""
		switch page.Kind(int32(i)) {
		case "script_element":
			def = "js"
		case "style_element":
			def = "css"
		default:
			continue
		}
		name := blockLang(page, int32(i))
		if name == "" {
			name = def
		}
		if !l.named(name) {
			continue
		}
		for c := page.FirstChild(int32(i)); c >= 0; c = page.Nodes[c].Next {
			if page.Kind(c) == "raw_text" {
				out = append(out, [2]int{int(page.Nodes[c].Start), int(page.Nodes[c].End)})
				break
			}
		}
	}
	return out
}

// blockLang is the value of the element's first `lang` attribute, or "".
func blockLang(page *syntax.Tree, el int32) string {
	end := page.Nodes[el].End
	for i := el + 1; i < int32(len(page.Nodes)) && page.Nodes[i].Start < end; i++ {
		if page.Kind(i) != "attribute" {
			continue
		}
		var name, value []byte
		for j := i + 1; j < int32(len(page.Nodes)) && page.Nodes[j].End <= page.Nodes[i].End; j++ {
			switch page.Kind(j) {
			case "attribute_name":
				if name == nil {
					name = page.Text(j)
				}
			case "attribute_value":
				if value == nil {
					value = page.Text(j)
				}
			}
		}
		if bytes.Equal(name, []byte("lang")) && value != nil {
			return string(value)
		}
	}
	return ""
}

// named reports whether name is one of l's names (case-insensitive).
func (l *Lang) named(name string) bool {
	if strings.EqualFold(name, string(l.Name)) {
		return true
	}
	for _, a := range l.aliases {
		if strings.EqualFold(a, name) {
			return true
		}
	}
	return false
}
