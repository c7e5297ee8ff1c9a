package structural

import "strings"

// Expand substitutes the captures of m (a match in src) into template, as ast-grep's
// rewrite does: `$NAME` and `$$NAME` become the captured node's text,
// `$$$NAME` the source from the first to the last node of the list; a
// metavariable the match did not bind becomes empty. Other text is kept
// as written (no re-indentation).
func Expand(src []byte, m *Match, template string) string {
	var b strings.Builder
	for i := 0; i < len(template); {
		c := template[i]
		if c != '$' {
			b.WriteByte(c)
			i++
			continue
		}
		j := i
		for j < len(template) && template[j] == '$' && j-i < 3 {
			j++
		}
		k := j
		for k < len(template) && (template[k] >= 'A' && template[k] <= 'Z' || template[k] == '_' || k > j && template[k] >= '0' && template[k] <= '9') {
			k++
		}
		if k == j { // a `$` not followed by a name: literal
			b.WriteString(template[i:j])
			i = j
			continue
		}
		name, multi := template[j:k], j-i == 3
		for _, v := range m.Vars {
			if v.Name == name && v.Multi == multi {
				b.Write(v.Bytes(src))
				break
			}
		}
		i = k
	}
	return b.String()
}
