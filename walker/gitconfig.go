package walker

import (
	"os"
	"os/user"
	"path/filepath"
	"strings"
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
// way the ignore crate finds it, without running git: core.excludesFile
// from ~/.gitconfig, else from $XDG_CONFIG_HOME/git/config (or
// ~/.config/git/config), else $XDG_CONFIG_HOME/git/ignore (or
// ~/.config/git/ignore).
func globalExcludesPath() (string, bool) {
	if h, ok := homeDir(); ok {
		if p, ok := excludesFileFromConfig(joinPath(h, ".gitconfig")); ok {
			return p, true
		}
	}
	x, ok := xdgConfigHome()
	if !ok {
		return "", false
	}
	if p, ok := excludesFileFromConfig(joinPath(x, "git/config")); ok {
		return p, true
	}
	return joinPath(x, "git/ignore"), true
}

// excludesFileFromConfig reads a git config file and returns its
// excludesfile value, with every '~' replaced by the home directory.
func excludesFileFromConfig(path string) (string, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	v, ok := parseExcludesFile(string(data))
	if !ok {
		return "", false
	}
	if h, ok := homeDir(); ok {
		v = strings.ReplaceAll(v, "~", h)
	}
	return v, true
}

// parseExcludesFile finds the first line of a git config that reads
// "excludesfile = VALUE" (the key in any case, in any section: the ignore
// crate does not parse sections either) and returns VALUE up to the end of
// the line, trailing blanks included, as its regular expression
// (?im)^\s*excludesfile\s*=\s*(.+)\s*$ does.
func parseExcludesFile(cfg string) (string, bool) {
	for len(cfg) > 0 {
		line := cfg
		if i := strings.IndexByte(cfg, '\n'); i >= 0 {
			line, cfg = cfg[:i], cfg[i+1:]
		} else {
			cfg = ""
		}
		s := strings.TrimLeft(line, " \t\r\v\f")
		const key = "excludesfile"
		if len(s) < len(key) || !strings.EqualFold(s[:len(key)], key) {
			continue
		}
		s = strings.TrimLeft(s[len(key):], " \t\r\v\f")
		if !strings.HasPrefix(s, "=") {
			continue
		}
		s = strings.TrimLeft(s[1:], " \t\r\v\f")
		if s == "" {
			continue
		}
		return s, true
	}
	return "", false
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
