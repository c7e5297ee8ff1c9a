package walker

import (
	"io"
	"os"
	"os/user"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// homeDir returns $HOME, or the user database's home directory when HOME
// is unset, as Rust's std::env::home_dir does.
func homeDir() (string, bool) {
	if h, ok := os.LookupEnv("HOME"); ok {
		return h, true
	}
	u, err := user.Current()
	if err != nil || u.HomeDir == "" {
		return "", false
	}
	return u.HomeDir, true
}

// xdgConfigHome returns $XDG_CONFIG_HOME when set and non-empty, else
// ~/.config.
func xdgConfigHome() (string, bool) {
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return x, true
	}
	h, ok := homeDir()
	if !ok {
		return "", false
	}
	return joinPath(h, ".config"), true
}

// globalExcludesPath returns the path of git's global excludes file the
// way the ignore crate of ripgrep 15 finds it, without running git: the
// core.excludesFile of the first of these config files that names one:
// $GIT_CONFIG_GLOBAL (when set and not empty), ~/.gitconfig,
// $XDG_CONFIG_HOME/git/config (or ~/.config/git/config),
// $GIT_CONFIG_SYSTEM (when set and not empty; /etc/gitconfig is not
// read); else $XDG_CONFIG_HOME/git/ignore (or ~/.config/git/ignore).
func globalExcludesPath() (string, bool) {
	if g := os.Getenv("GIT_CONFIG_GLOBAL"); g != "" {
		if p, ok := excludesFileFromConfig(g); ok {
			return p, true
		}
	}
	if h, ok := homeDir(); ok {
		if p, ok := excludesFileFromConfig(joinPath(h, ".gitconfig")); ok {
			return p, true
		}
	}
	x, xok := xdgConfigHome()
	if xok {
		if p, ok := excludesFileFromConfig(joinPath(x, "git/config")); ok {
			return p, true
		}
	}
	if sys := os.Getenv("GIT_CONFIG_SYSTEM"); sys != "" {
		if p, ok := excludesFileFromConfig(sys); ok {
			return p, true
		}
	}
	if !xok {
		return "", false
	}
	return joinPath(x, "git/ignore"), true
}

// excludesFileFromConfig reads a git config file and returns its
// excludesfile value, with every '~' replaced by the home directory.
func excludesFileFromConfig(path string) (string, bool) {
	data, err := readConfigFile(path)
	if err != nil {
		return "", false
	}
	v, ok := parseExcludesFile(data)
	if !ok {
		return "", false
	}
	if h, ok := homeDir(); ok {
		v = strings.ReplaceAll(v, "~", h)
	}
	return v, true
}

// readConfigFile reads at most maxGitConfigSize bytes of a git config
// file; a bigger one is read no further (its excludesfile line, if any
// beyond the limit, is not seen).
func readConfigFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxGitConfigSize))
}

// excludesFileRE is the ignore crate's expression for core.excludesFile
// (it does not parse sections: the key counts in any section), with
// Rust's ASCII \s (which holds \v, unlike Go's) and its ASCII-only case
// folding of the key spelled out. It may span lines, as the crate's does.
// It is compiled on first use: most runs read no git config.
var excludesFileRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[\t\n\v\f\r ]*[eE][xX][cC][lL][uU][dD][eE][sS][fF][iI][lL][eE][\t\n\v\f\r ]*=[\t\n\v\f\r ]*"?[\t\n\v\f\r ]*([^\t\n\v\f\r ]+?)[\t\n\v\f\r ]*"?[\t\n\v\f\r ]*$`)
})

// parseExcludesFile finds the first match of the ignore crate's
// (?im-u)^\s*excludesfile\s*=\s*"?\s*(\S+?)\s*"?\s*$ in a git config and
// returns its value: no blanks, surrounding double quotes dropped. A
// value that is not UTF-8 counts as none.
func parseExcludesFile(cfg []byte) (string, bool) {
	if !hasFoldASCII(cfg, "excludesfile") {
		// No match is possible: the expression is not compiled.
		return "", false
	}
	m := excludesFileRE().FindSubmatchIndex(cfg)
	if m == nil {
		return "", false
	}
	v := cfg[m[2]:m[3]]
	if !utf8.Valid(v) {
		return "", false
	}
	return string(v), true
}

// hasFoldASCII reports whether b holds word (lower-case ASCII letters)
// under ASCII case folding only, as the expression's key is spelled.
func hasFoldASCII(b []byte, word string) bool {
	for i := 0; i+len(word) <= len(b); i++ {
		j := 0
		for j < len(word) && b[i+j]|0x20 == word[j] {
			j++
		}
		if j == len(word) {
			return true
		}
	}
	return false
}

// isRegularFile reports whether path names a regular file (following
// symlinks), as Rust's Path::is_file does.
func isRegularFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// canonicalize returns the absolute, symlink-free form of path, as Rust's
// fs::canonicalize (realpath) does.
func canonicalize(path string) (string, bool) {
	// EvalSymlinks first: it resolves a symlink before a following "..",
	// which filepath.Abs would instead remove lexically.
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", false
	}
	abs, err := filepath.Abs(real)
	if err != nil {
		return "", false
	}
	return abs, true
}
