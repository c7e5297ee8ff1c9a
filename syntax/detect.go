package syntax

import (
	"bytes"
	"path"
	"strings"
)

// byExt maps a lower-case file extension (with its dot) to a language.
var byExt = map[string]Language{
	".go":      Go,
	".py":      Python,
	".pyi":     Python,
	".pyw":     Python,
	".rs":      Rust,
	".js":      JavaScript,
	".mjs":     JavaScript,
	".cjs":     JavaScript,
	".jsx":     JavaScript,
	".ts":      TypeScript,
	".mts":     TypeScript,
	".cts":     TypeScript,
	".tsx":     TSX,
	".java":    Java,
	".c":       C,
	".cc":      Cpp,
	".cpp":     Cpp,
	".cxx":     Cpp,
	".c++":     Cpp,
	".hh":      Cpp,
	".hpp":     Cpp,
	".hxx":     Cpp,
	".h++":     Cpp,
	".ipp":     Cpp,
	".tcc":     Cpp,
	".inl":     Cpp,
	".rb":      Ruby,
	".rake":    Ruby,
	".gemspec": Ruby,
	".ru":      Ruby,
	".rbw":     Ruby,
	// The languages added later, with the extensions of rg's type table
	// (sh, csharp, css, html, kotlin, lua, php, scala, swift, yaml) that
	// their grammar parses, plus ast-grep's few others (.csx, .ktm, .sc,
	// .xhtml). Not taken from rg's table: csh and tcsh files (not Bourne
	// shell syntax), .scss (not CSS), .ejs, .jsp, .properties, .vue.
	".sh":     Bash,
	".bash":   Bash,
	".ksh":    Bash,
	".zsh":    Bash,
	".bashrc": Bash,
	".kshrc":  Bash,
	".env":    Bash,
	".cs":     CSharp,
	".csx":    CSharp,
	".css":    CSS,
	".html":   HTML,
	".htm":    HTML,
	".xhtml":  HTML,
	".kt":     Kotlin,
	".kts":    Kotlin,
	".ktm":    Kotlin,
	".lua":    Lua,
	".php":    PHP,
	".php3":   PHP,
	".php4":   PHP,
	".php5":   PHP,
	".php7":   PHP,
	".php8":   PHP,
	".pht":    PHP,
	".phtml":  PHP,
	".scala":  Scala,
	".sbt":    Scala,
	".sc":     Scala,
	".swift":  Swift,
	".yaml":   YAML,
	".yml":    YAML,
}

// byName maps an exact base name to a language.
var byName = map[string]Language{
	"Rakefile":    Ruby,
	"Gemfile":     Ruby,
	"Guardfile":   Ruby,
	"Vagrantfile": Ruby,
	"Podfile":     Ruby,
	"Fastfile":    Ruby,
	"Brewfile":    Ruby,
	"Capfile":     Ruby,
	"Berksfile":   Ruby,
	"Thorfile":    Ruby,
	".irbrc":      Ruby,
	// Shell start-up files (rg's sh type, without the csh ones).
	".bash_login": Bash, ".bash_logout": Bash, ".bash_profile": Bash, ".bashrc": Bash,
	".kshrc": Bash, ".profile": Bash, ".env": Bash,
	".zlogin": Bash, ".zlogout": Bash, ".zprofile": Bash, ".zshenv": Bash, ".zshrc": Bash,
	"bash_login": Bash, "bash_logout": Bash, "bash_profile": Bash, "bashrc": Bash, "profile": Bash,
	"zlogin": Bash, "zlogout": Bash, "zprofile": Bash, "zshenv": Bash, "zshrc": Bash,
}

// byInterpreter maps a shebang's interpreter (its base name, version digits
// trimmed) to a language.
var byInterpreter = map[string]Language{
	"python":  Python,
	"pypy":    Python,
	"ruby":    Ruby,
	"node":    JavaScript,
	"nodejs":  JavaScript,
	"ts-node": TypeScript,
	"tsx":     TypeScript,
	"sh":      Bash,
	"bash":    Bash,
	"dash":    Bash,
	"ash":     Bash,
	"ksh":     Bash,
	"mksh":    Bash,
	"zsh":     Bash,
	"lua":     Lua,
	"luajit":  Lua,
	"php":     PHP,
	"scala":   Scala,
	"kotlin":  Kotlin,
	"swift":   Swift,
}

// cppMarkers are cheap signs that a .h file is C++ rather than C.
var cppMarkers = [][]byte{
	[]byte("namespace "), []byte("template <"), []byte("template<"),
	[]byte("class "), []byte("public:"), []byte("private:"), []byte("protected:"),
	[]byte("std::"), []byte("#include <string>"), []byte("#include <vector>"),
}

// Detect names the language of a file from its path (extension or base
// name) and, failing that, from a shebang line at the start of head (the
// file's first bytes; nil is fine). A ".h" file is C++ when head shows C++
// constructs, C otherwise. The second result is false when no language fits.
func Detect(p string, head []byte) (Language, bool) {
	base := path.Base(strings.ReplaceAll(p, "\\", "/"))
	if l, ok := byName[base]; ok {
		return l, true
	}
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		ext := base[i:]
		switch ext {
		case ".C", ".H": // the traditional C++ spellings
			return Cpp, true
		}
		ext = strings.ToLower(ext)
		if ext == ".h" {
			if len(head) > headBytes {
				head = head[:headBytes]
			}
			for _, m := range cppMarkers {
				if bytes.Contains(head, m) {
					return Cpp, true
				}
			}
			return C, true
		}
		if l, ok := byExt[ext]; ok {
			return l, true
		}
	}
	return shebang(head)
}

// shebang reads "#!/usr/bin/env [-S] python3 …" or "#!/usr/bin/ruby".
func shebang(head []byte) (Language, bool) {
	if !bytes.HasPrefix(head, []byte("#!")) {
		return "", false
	}
	line := head[2:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		return "", false
	}
	prog := path.Base(fields[0])
	if prog == "env" {
		prog = ""
		for _, f := range fields[1:] {
			if strings.HasPrefix(f, "-") || strings.Contains(f, "=") {
				continue // env options and VAR=value assignments
			}
			prog = path.Base(f)
			break
		}
	}
	prog = strings.TrimRight(prog, "0123456789.")
	l, ok := byInterpreter[prog]
	return l, ok
}
