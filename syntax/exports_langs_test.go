//go:build cgo

package syntax

import (
	"slices"
	"testing"
)

// TestExportedLangs: Decl.Exported for the later languages, on the edge
// cases of each one's rules. want lists the exported top-level names and
// "Container.member" for the exported members of exported containers, in
// source order (as TestExported).
func TestExportedLangs(t *testing.T) {
	for _, c := range []struct {
		lang Language
		src  string
		want []string
	}{
		{Bash, "X=1\nexport Y=2\ndeclare -x Z=3\ndeclare -r R=4\nexport X\nf() { :; }\n_g() { :; }\nfunction h { :; }\n",
			[]string{"X", "Y", "Z", "f", "h"}},
		{CSharp, "public interface I { void M(); int P { get; } }\nclass Hidden { public void N() {} }\npublic struct S { public int A; int b; private int C() => 1; protected void D() {} }\npublic enum E { A }\n",
			[]string{"I", "I.M", "I.P", "S", "S.A", "E"}},
		{CSharp, "namespace N;\npublic class A { internal void F() {} public A() {} }\n",
			[]string{"N", "A", "A.A"}},
		{Kotlin, "fun a() {}\ninternal fun b() {}\nprivate class C\nprotected val d = 1\nclass E {\n    fun f() {}\n    private fun g() {}\n    internal val h = 1\n}\nobject O { const val K = 1 }\n",
			[]string{"a", "E", "E.f", "O", "O.K"}},
		{Lua, "local M = {}\nlocal function hidden() end\nfunction M.open() end\nfunction M:close() end\nfunction global() end\nlocal other = {}\nfunction other.f() end\nfunction string.trim(s) end\nreturn M\n",
			[]string{"M", "M.open", "M:close", "global", "string.trim"}},
		{Lua, "local t = {}\nfunction t.f() end\nG = 1\n",
			[]string{"G"}},
		{PHP, "<?php\nfunction f() {}\nclass A { function implicit() {} public function p() {} protected function q() {} private $x; var $y; const C = 1; private const D = 2; }\ninterface I { function m(); }\n",
			[]string{"f", "A", "A.implicit", "A.p", "A.$y", "A.C", "I", "I.m"}},
		{Scala, "object O { def a = 1; private def b = 2; protected val c = 3; private[pkg] def d = 4; val e = 5 }\nprivate class P\ntrait T { def m: Int }\n",
			[]string{"O", "O.a", "O.e", "T", "T.m"}},
		{Swift, "public func a() {}\nfunc b() {}\nopen class C {\n    open func o() {}\n    public var p = 1\n    internal func i() {}\n    private func q() {}\n}\nprotocol P { func m() }\npublic protocol Q { func n() }\nextension C {\n    public func e() {}\n    func f() {}\n}\n",
			[]string{"a", "C", "C.o", "C.p", "Q", "Q.n", "C", "C.e"}},
		{HTML, "<div id=\"a\">\n<p id=b>x</p>\n</div>\n<span>y</span>\n<script>\nlet z = 1;\n</script>\n",
			[]string{"div#a", "div#a.p#b"}},
		{CSS, "a { color: red; }\n@media print {\n  b { color: blue; }\n}\n",
			[]string{"a", "@media print", "@media print.b"}},
		{YAML, "a: 1\nb:\n  c: 2\n",
			[]string{"a", "b", "b.c"}},
	} {
		decls, err := Outline(c.lang, []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.lang, err)
		}
		if he, _ := HasErrors(c.lang, []byte(c.src)); he {
			t.Errorf("%s: syntax errors in\n%s", c.lang, c.src)
		}
		var got []string
		for _, d := range decls {
			if !d.Exported {
				continue
			}
			got = append(got, d.Name)
			for _, m := range d.Children {
				if m.Exported {
					got = append(got, d.Name+"."+m.Name)
				}
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s exports %q, want %q\n%s", c.lang, got, c.want, c.src)
		}
	}
}
