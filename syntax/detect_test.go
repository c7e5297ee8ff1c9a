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
		{"script", "#!/bin/sh\n", Bash, true},
		{"script", "#!/usr/bin/env bash\n", Bash, true},
		{"script", "#!/bin/zsh -f\n", Bash, true},
		{"script", "#!/usr/bin/env lua5.4\n", Lua, true},
		{"script", "#!/usr/bin/php8\n", PHP, true},
		{"script", "#!/usr/bin/env scala\n", Scala, true},
		{"script", "#!/bin/csh\n", "", false},
		{"script", "#!/usr/bin/perl\n", "", false},
		{"run.sh", "", Bash, true},
		{"lib.bash", "", Bash, true},
		{"x.zsh", "", Bash, true},
		{"x.ksh", "", Bash, true},
		{"home/.bashrc", "", Bash, true},
		{".zshrc", "", Bash, true},
		{".profile", "", Bash, true},
		{"bash_profile", "", Bash, true},
		{".env", "", Bash, true},
		{"prod.env", "", Bash, true},
		{"x.csh", "", "", false},
		{".cshrc", "", "", false},
		{"Program.cs", "", CSharp, true},
		{"site.css", "", CSS, true},
		{"site.scss", "", "", false},
		{"index.html", "", HTML, true},
		{"INDEX.HTM", "", HTML, true},
		{"page.xhtml", "", HTML, true},
		{"Main.kt", "", Kotlin, true},
		{"build.gradle.kts", "", Kotlin, true},
		{"init.lua", "", Lua, true},
		{"index.php", "", PHP, true},
		{"view.phtml", "", PHP, true},
		{"old.php5", "", PHP, true},
		{"Main.scala", "", Scala, true},
		{"build.sbt", "", Scala, true},
		{"App.swift", "", Swift, true},
		{"ci.yml", "", YAML, true},
		{"k8s/deploy.yaml", "", YAML, true},
		{"x.rbw", "", Ruby, true},
		{".irbrc", "", Ruby, true},
		{"Page.vue", "", "", false},
		{"app.properties", "", "", false},
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
