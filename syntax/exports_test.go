//go:build cgo

package syntax

import (
	"slices"
	"testing"
)

// TestExported: Decl.Exported follows each language's public surface.
// want lists the exported top-level names and "Container.member" for the
// exported members of exported containers, in source order.
func TestExported(t *testing.T) {
	for _, c := range []struct {
		lang Language
		src  string
		want []string
	}{
		{Go, "package p\n\nfunc Open() {}\n\nfunc close() {}\n\ntype File struct{ n int }\n\ntype file struct{}\n\nfunc (f *File) Read() {}\n\nfunc (f *File) seek() {}\n\nfunc (f *file) Open() {}\n\nfunc (l List[T]) Len() int { return 0 }\n\nconst (\n\tMax = 1\n\tmin = 0\n)\n\nvar hidden = 1\n\ntype Reader interface {\n\tRead() int\n\tclose()\n}\n",
			[]string{"Open", "File", "Read", "Len", "Max, min", "Reader", "Reader.Read"}},
		{Python, "def load():\n    pass\n\ndef _helper():\n    pass\n\nclass Store:\n    def get(self):\n        pass\n\n    def _evict(self):\n        pass\n\n    def __init__(self):\n        pass\n\nclass _Cache:\n    pass\n\nLIMIT = 3\n",
			[]string{"load", "Store", "Store.get", "LIMIT"}},
		{Python, "__all__ = ['load', \"Store\"]\n\ndef load():\n    pass\n\ndef dump():\n    pass\n\nclass Store:\n    def get(self):\n        pass\n",
			[]string{"load", "Store", "Store.get"}},
		{JavaScript, "export function open() {}\nfunction close() {}\nexport const MAX = 3;\nconst min = 0;\nexport class Conn {\n  send() {}\n  #secret() {}\n}\nclass Local {}\nfunction listed() {}\nexport { listed };\nexport default function () {}\n",
			[]string{"open", "MAX", "Conn", "Conn.send", "listed", "default"}},
		{TypeScript, "export interface Shape {\n  area(): number;\n}\nexport class Circle {\n  public area(): number { return 1; }\n  private secret(): void {}\n  protected guarded(): void {}\n}\ntype Local = number;\nexport type Id = string;\nnamespace N {\n  export function f() {}\n}\n",
			[]string{"Shape", "Shape.area", "Circle", "Circle.area", "Id"}},
		{Rust, "pub fn open() {}\nfn close() {}\npub struct File;\nstruct Local;\nimpl File {\n    pub fn read(&self) {}\n    fn seek(&self) {}\n}\npub trait Reader {\n    fn read(&self);\n}\nimpl Reader for File {\n    fn read(&self) {}\n}\npub(crate) fn internal() {}\n#[macro_export]\nmacro_rules! m { () => {} }\nmacro_rules! hidden { () => {} }\n",
			[]string{"open", "File", "File", "File.read", "Reader", "Reader.read", "Reader for File", "Reader for File.read", "m"}},
		{Java, "public class Api {\n    public void call() {}\n    private void hidden() {}\n    void pkg() {}\n}\ninterface Local {\n    void run();\n}\n",
			[]string{"Api", "Api.call"}},
		{Cpp, "int open();\nstatic int helper() { return 0; }\nclass Conn {\n  int secret();\npublic:\n  void send();\n};\nstruct Point {\n  int norm();\n};\nnamespace {\n  void local() {}\n}\n",
			[]string{"open", "Conn", "Conn.send", "Point", "Point.norm"}},
		{C, "int open(void);\nstatic int helper(void) { return 0; }\nint count = 0;\nstatic int hidden = 1;\n#define MAX 3\n",
			[]string{"open", "count", "MAX"}},
		{Ruby, "class Store\n  def get\n  end\n\n  private\n\n  def evict\n  end\nend\n\nmodule Util\n  def self.helper\n  end\n  private def hidden\n  end\nend\n",
			[]string{"Store", "Store.get", "Util", "Util.self.helper"}},
	} {
		decls, err := Outline(c.lang, []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.lang, err)
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
