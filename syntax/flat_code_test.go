package syntax

import (
	"strings"
	"testing"
)

// TestParseCodePHPWithoutTag: PHP code without an opening tag is read as
// code, its ranges on the source as given, with no node of the added tag.
func TestParseCodePHPWithoutTag(t *testing.T) {
	if !Supported(PHP) {
		t.Skip("no PHP grammar in this build")
	}
	src := []byte("  return null;\n")
	tr, err := ParseCode(PHP, src)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for i := range tr.Nodes {
		n := &tr.Nodes[i]
		if n.End > uint32(len(src)) || n.Start > n.End {
			t.Fatalf("node %d %s [%d,%d) out of the source", i, tr.Kind(int32(i)), n.Start, n.End)
		}
		kinds = append(kinds, tr.Kind(int32(i)))
	}
	if got := strings.Join(kinds, " "); got != "program return_statement return null ;" {
		t.Errorf("kinds %q", got)
	}
	if r := tr.Nodes[0]; r.Start != 2 || r.End != uint32(len(src)) || r.NumChildren != 1 {
		t.Errorf("root [%d,%d) with %d children", r.Start, r.End, r.NumChildren)
	}
	if s := tr.Nodes[1]; s.Start != 2 || s.End != 14 || s.Parent != 0 || s.Next != -1 {
		t.Errorf("statement [%d,%d) parent %d next %d", s.Start, s.End, s.Parent, s.Next)
	}
	if string(tr.Text(3)) != "null" {
		t.Errorf("null reads %q", tr.Text(3))
	}
}

// TestParseCodePHPNewerTree: the tree is the newer grammar's ast-grep
// parses with: no namespace_name_as_prefix, `use function` inside the
// clause, `object` a primitive type.
func TestParseCodePHPNewerTree(t *testing.T) {
	if !Supported(PHP) {
		t.Skip("no PHP grammar in this build")
	}
	src := []byte("<?php\nuse function a, b;\necho \\f(new \\A\\B);\nfunction g(object $o) {}\n")
	tr, err := ParseCode(PHP, src)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i := range tr.Nodes {
		k := tr.Kind(int32(i))
		seen[k] = true
		n := &tr.Nodes[i]
		if p := n.Parent; p >= 0 && (tr.Nodes[p].Start > n.Start || tr.Nodes[p].End < n.End) {
			t.Errorf("%s [%d,%d) outside its parent", k, n.Start, n.End)
		}
		if k == "namespace_use_clause" && string(tr.Text(int32(i))) != "function a" && string(tr.Text(int32(i))) != "b" {
			t.Errorf("use clause %q", tr.Text(int32(i)))
		}
	}
	if seen["namespace_name_as_prefix"] || !seen["primitive_type"] {
		t.Errorf("kinds %v", seen)
	}
}
