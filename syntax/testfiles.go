package syntax

import (
	"path"
	"strings"
)

// testDirs are folder names whose files are tests in every language.
var testDirs = map[string]bool{"test": true, "tests": true, "__tests__": true, "spec": true, "specs": true}

// TestFileReason tells why the file at p ('/'-separated) is a test file by
// its language's naming conventions ("" when it is not): Go foo_test.go;
// Python test_foo.py, foo_test.py, conftest.py; JavaScript and TypeScript
// foo.test.ts, foo.spec.js (any of their extensions); Java FooTest.java,
// FooTests.java, TestFoo.java; Ruby foo_spec.rb, foo_test.rb, test_foo.rb;
// Rust, C and C++ foo_test.rs/.c/.cc, test_foo.c; and in every language a
// file under a test, tests, __tests__, spec or specs folder.
func TestFileReason(p string) string {
	base := path.Base(p)
	lang, _ := Detect(base, nil)
	stem := base
	if i := strings.IndexByte(base, '.'); i > 0 {
		stem = base[:i]
	}
	switch lang {
	case Go:
		if strings.HasSuffix(base, "_test.go") {
			return "Go test file (_test.go)"
		}
	case Python:
		switch {
		case base == "conftest.py":
			return "pytest conftest.py"
		case strings.HasPrefix(base, "test_"), strings.HasSuffix(stem, "_test"):
			return "Python test file (test_*.py or *_test.py)"
		}
	case JavaScript, TypeScript, TSX:
		if parts := strings.Split(base, "."); len(parts) >= 3 {
			switch parts[len(parts)-2] {
			case "test", "spec":
				return "test file (*." + parts[len(parts)-2] + "." + parts[len(parts)-1] + ")"
			}
		}
	case Java:
		if strings.HasSuffix(stem, "Test") || strings.HasSuffix(stem, "Tests") || strings.HasPrefix(stem, "Test") && len(stem) > 4 {
			return "Java test class (*Test.java, *Tests.java or Test*.java)"
		}
	case Ruby:
		switch {
		case strings.HasSuffix(stem, "_spec"):
			return "RSpec file (*_spec.rb)"
		case strings.HasSuffix(stem, "_test"), strings.HasPrefix(stem, "test_"):
			return "Ruby test file (*_test.rb or test_*.rb)"
		}
	case Rust, C, Cpp:
		if strings.HasSuffix(stem, "_test") || strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_tests") {
			return "test file (*_test or test_* by name)"
		}
	}
	dir := path.Dir(p)
	for dir != "." && dir != "/" && dir != "" {
		if testDirs[path.Base(dir)] {
			return "under a " + path.Base(dir) + "/ folder"
		}
		dir = path.Dir(dir)
	}
	return ""
}

// IsTestFile reports whether TestFileReason names a reason for p.
func IsTestFile(p string) bool { return TestFileReason(p) != "" }
