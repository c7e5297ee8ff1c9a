// Package credpolicy computes where an agent never reads: the system's
// secret places and every credential store of every home folder the
// process may have, with the resolution of each that resolves elsewhere
// (~/.ssh as a link into a dotfiles folder forbids that folder too).
//
// The computation looks at the disk (a few hundred lstat calls as root,
// which lists every account's home) and takes most of a millisecond, so a
// process that knows early that it will need it starts it with Start,
// while the rest of the program initialises on the other core, and takes
// the result with Take. The package imports the standard library only, so
// that it is initialised among the first packages.
package credpolicy

import (
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// stores are the files and folders, relative to a home folder, that hold
// credentials, tokens or shell histories. It is the one table of them: a
// folder entry covers everything beneath it.
var stores = []string{
	// keys and key agents
	".ssh", ".gnupg", ".password-store", ".local/share/keyrings",
	".local/share/kwalletd", ".pki",
	// cloud and cluster credentials
	".aws", ".azure", ".config/gcloud", ".oci", ".kube", ".docker",
	".config/doctl", ".config/hcloud", ".config/rclone", ".s3cfg", ".boto",
	".vault-token", ".terraform.d", ".terraformrc",
	".config/op", ".op", ".config/hub", ".config/gh", ".config/glab-cli",
	".config/heroku", ".netrc", ".authinfo", ".authinfo.gpg",
	// git and package registries
	".git-credentials", ".config/git/credentials", ".gitcookies",
	".npmrc", ".yarnrc", ".pypirc", ".gem/credentials", ".m2/settings.xml",
	".m2/settings-security.xml", ".gradle/gradle.properties", ".nuget",
	".cargo/credentials", ".cargo/credentials.toml", ".composer/auth.json",
	".config/composer/auth.json",
	// databases
	".pgpass", ".my.cnf", ".mylogin.cnf",
	// histories (commands typed with secrets in them)
	".bash_history", ".zsh_history", ".history", ".sh_history",
	".local/share/fish/fish_history", ".python_history", ".psql_history",
	".mysql_history", ".sqlite_history", ".node_repl_history",
	".rediscli_history", ".irb_history", ".lesshst", ".viminfo",
}

// systemPrefixes are never read: pseudo-filesystems, devices, secret
// mounts, and the system's own key stores (readable when the agent runs
// as root).
var systemPrefixes = []string{
	"/proc", "/sys", "/dev", "/run/secrets", "/var/run/secrets",
	"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-",
	"/etc/ssh", "/etc/ssl/private", "/etc/krb5.keytab",
}

// Stores returns the credential stores, relative to a home folder, in
// the table's order. The slice is shared: callers do not modify it.
func Stores() []string { return stores }

// RunningAsRoot reports whether the process can read every user's files
// (its effective user is root), as it was when the process started.
func RunningAsRoot() bool { return runningAsRoot }

var runningAsRoot = os.Geteuid() == 0

// A Set is the forbidden places for one HOME value, as the disk showed
// them at At.
type Set struct {
	// Home is the HOME value the set was computed for.
	Home string
	// At is when the computation began.
	At time.Time
	// Prefixes are the forbidden paths (a path inside one is forbidden
	// too): the system prefixes with their resolutions, and the
	// resolution of each credential store that resolves elsewhere than
	// its home folder's resolution.
	Prefixes map[string]bool
	// Homes are the home folders, as written and resolved, of which
	// every credential store is forbidden by its name (HomeStore).
	Homes map[string]bool
}

// Compute returns the forbidden places for HOME value home.
func Compute(home string) *Set {
	s := &Set{Home: home, At: time.Now()}
	s.Prefixes, s.Homes = forbiddenPrefixes(home)
	return s
}

// HomeStore reports whether path is, by its name, a credential store of
// one of the set's home folders: path is a home folder joined with an
// entry of Stores.
func (s *Set) HomeStore(path string) bool {
	if len(s.Homes) == 0 {
		return false
	}
	names := storeNames()
	end := len(path)
	for range MaxStoreComponents {
		slash := strings.LastIndexByte(path[:end], '/')
		if slash < 0 {
			return false
		}
		if names[path[slash+1:]] {
			h := path[:slash]
			if h == "" {
				h = "/"
			}
			if s.Homes[h] {
				return true
			}
		}
		end = slash
	}
	return false
}

// storeNames is the set of the stores' entries (computed on first use,
// not at start-up).
var storeNames = sync.OnceValue(func() map[string]bool {
	out := make(map[string]bool, len(stores))
	for _, e := range stores {
		out[e] = true
	}
	return out
})

// homeFolders returns every folder that may be the user's home: HOME
// (made absolute when relative), the account's home from the password
// database (os/user reads /etc/passwd itself when built without cgo), and
// the other accounts' homes when running as root. Their resolutions are
// added by the caller (resolutions.addHome).
func homeFolders(home string) []string {
	var out []string
	if home != "" {
		if abs, err := filepath.Abs(home); err == nil {
			out = append(out, abs)
		}
	}
	if u, err := user.Current(); err == nil && u.HomeDir != "" && filepath.IsAbs(u.HomeDir) {
		out = append(out, u.HomeDir)
	}
	return append(out, otherHomes()...)
}

// otherHomes are, for a process running as root (which reads every
// user's files), the home folders of the other accounts: /root, the
// folders in /home and the homes of /etc/passwd, at most maxOtherHomes of
// each.
func otherHomes() []string {
	if os.Geteuid() != 0 {
		return nil
	}
	out := []string{"/root"}
	names, _, _ := ListDir("/home", maxOtherHomes)
	for _, n := range names {
		out = append(out, filepath.Join("/home", n))
	}
	if b, err := readBounded("/etc/passwd", maxPasswdBytes); err == nil {
		k := 0
		for _, l := range strings.Split(string(b), "\n") {
			fields := strings.Split(l, ":")
			if len(fields) < 7 || !filepath.IsAbs(fields[5]) || filepath.Clean(fields[5]) == "/" {
				continue
			}
			if k++; k > maxOtherHomes {
				break
			}
			out = append(out, filepath.Clean(fields[5]))
		}
	}
	return out
}

// forbiddenPrefixes returns the forbidden places for HOME value home: the
// system prefixes with their resolutions, and the home folders (homes) of
// which every credential store is forbidden, with the resolution of each
// store that resolves elsewhere than its folder's resolution (prefixes).
func forbiddenPrefixes(home string) (prefixes, homes map[string]bool) {
	hs := homeFolders(home)
	prefixes = make(map[string]bool, 2*len(systemPrefixes)+len(hs))
	homes = make(map[string]bool, 2*len(hs))
	// Every home folder's stores share their folders' resolutions: each
	// folder is looked at once (as root, every home of /etc/passwd times
	// every store was tens of thousands of lstat calls at each start).
	rs := make(resolutions, 4*(len(systemPrefixes)+len(hs)))
	// Every path added is clean: a literal, a filepath.Join or a
	// resolution.
	add := func(p string) {
		if p != "/" {
			prefixes[p] = true
		}
	}
	for _, p := range systemPrefixes {
		add(p)
		add(rs.resolve(p))
	}
	listed := map[string]map[string]bool{}
	for _, h := range hs {
		if h = filepath.Clean(h); homes[h] {
			continue // the same folder twice (HOME, the account, /etc/passwd)
		}
		rs.addHome(h, listed, homes, add)
	}
	return prefixes, homes
}
