package syntax

import "testing"

func TestDetect(t *testing.T) {
	cases := []struct {
		path string
		head string
		want Language
		ok   bool
	}{
		{"main.go", "", Go, true},
		{"a/b/x.py", "", Python, true},
		{"stubs.pyi", "", Python, true},
		{"lib.rs", "", Rust, true},
		{"app.js", "", JavaScript, true},
		{"app.mjs", "", JavaScript, true},
		{"App.jsx", "", JavaScript, true},
		{"index.ts", "", TypeScript, true},
		{"index.d.ts", "", TypeScript, true},
		{"View.tsx", "", TSX, true},
		{"Main.java", "", Java, true},
		{"x.c", "", C, true},
		{"x.h", "int f(void);\n", C, true},
		{"x.h", "namespace foo {\n", Cpp, true},
		{"x.h", "class Foo {\npublic:\n", Cpp, true},
		{"x.cc", "", Cpp, true},
		{"x.hpp", "", Cpp, true},
		{"X.C", "", Cpp, true},
		{"X.CPP", "", Cpp, true},
		{"app.rb", "", Ruby, true},
		{"Rakefile", "", Ruby, true},
		{"dir/Gemfile", "", Ruby, true},
		{`C:\src\main.go`, "", Go, true},
		{"script", "#!/usr/bin/env python3\nprint(1)\n", Python, true},
		{"script", "#!/usr/bin/python2.7\n", Python, true},
		{"script", "#!/usr/bin/env ruby -w\n", Ruby, true},
		{"script", "#!/usr/bin/env -S node --no-warnings\n", JavaScript, true},
		{"script", "#!/usr/bin/env NODE_ENV=x node\n", JavaScript, true},
		{"script", "#!/bin/sh\n", "", false},
		{"script", "#!\n", "", false},
		{"script", "", "", false},
		{"notes.txt", "#!/usr/bin/env python3\n", Python, true},
		{"Makefile", "", "", false},
		{".go", "", "", false}, // a dot file named ".go" has no extension
	}
	for _, c := range cases {
		got, ok := Detect(c.path, []byte(c.head))
		if got != c.want || ok != c.ok {
			t.Errorf("Detect(%q, %q) = %q, %v; want %q, %v", c.path, c.head, got, ok, c.want, c.ok)
		}
		if ok && !got.Known() {
			t.Errorf("Detect(%q) gave unknown language %q", c.path, got)
		}
	}
}
