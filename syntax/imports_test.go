//go:build cgo

package syntax

import (
	"fmt"
	"strings"
	"testing"
)

func TestImports(t *testing.T) {
	tests := []struct {
		lang Language
		src  string
		want string // "line kind spec [names]" per import
	}{
		{Go, "package p\n\nimport (\n\t\"fmt\"\n\tx \"a/b\"\n)\nimport _ `c`\n\nfunc f() { _ = \"import\" }\n",
			"4 import fmt []\n5 import a/b []\n7 import c []\n"},
		{Python, "import os.path, sys as system\nfrom . import sibling\nfrom ..pkg.mod import thing, other as o\nfrom pkg import *\ndef f():\n    import json\n",
			"1 import os.path []\n1 import sys []\n2 from . [sibling]\n3 from ..pkg.mod [thing other]\n4 from pkg [*]\n6 import json []\n"},
		{TypeScript, "import x from \"./x\";\nimport { y } from '../y/index';\nexport * from \"./z\";\nconst r = require(\"./r\");\nconst d = import(\"./d\");\nimport \"side\";\nexport const q = 1;\nrequire(name);\n",
			"1 import ./x []\n2 import ../y/index []\n3 export-from ./z []\n4 require ./r []\n5 require ./d []\n6 import side []\n"},
		{Rust, "mod foo;\npub mod bar;\nmod inline { mod deep; }\nuse crate::a::b::C;\nuse super::x::{A, B};\nuse std::io;\n",
			"1 mod foo []\n2 mod bar []\n3 mod deep []\n4 use crate::a::b::C []\n5 use super::x [A B]\n6 use std::io []\n"},
		{Java, "package p;\nimport java.util.List;\nimport static a.B.c;\nclass X {}\n", "2 import java.util.List []\n3 import static a.B.c []\n"},
		{C, "#include <stdio.h>\n#include \"local.h\"\nint x;\n", "1 include-system stdio.h []\n2 include local.h []\n"},
		{Ruby, "require \"json\"\nrequire_relative 'lib/thing'\nrequire name\nx.require \"no\"\n", "1 require json []\n2 require_relative lib/thing []\n"},
	}
	for _, tt := range tests {
		imps, err := Imports(tt.lang, []byte(tt.src))
		if err != nil {
			t.Fatalf("%s: %v", tt.lang, err)
		}
		var b strings.Builder
		for _, im := range imps {
			fmt.Fprintf(&b, "%d %s %s %v\n", im.Line, im.Kind, im.Spec, im.Names)
		}
		if b.String() != tt.want {
			t.Errorf("%s: got\n%swant\n%s", tt.lang, b.String(), tt.want)
		}
	}
}
