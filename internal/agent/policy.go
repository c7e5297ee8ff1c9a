package agent

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/evgrep/evgrep/internal/pipeline"
)

// The agent's path policy: what it never reads, and how it opens what it
// reads. Every place the agent reads a file (search, inspect, outline) and
// every path a request names goes through forbidden, refuseSpecial and
// openChecked.
//
// Credential stores are matched after resolving both sides: the checked
// path is a real path (resolved by the caller, or read back from the opened
// descriptor), and every home folder the process may have (HOME made
// absolute, its resolution, the account's home from the password database
// and its resolution) contributes every entry of credentialStores together
// with the entry's own resolution, so that ~/.ssh as a symlink into a
// dotfiles folder forbids that folder too. Git internals are recognised by
// what they are (isGitDir), not only by the name .git.

// credentialStores are the files and folders, relative to a home folder,
// that hold credentials, tokens or shell histories. It is the one table of
// them: a folder entry covers everything beneath it.
var credentialStores = []string{
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

// Policy bounds.
const (
	// policyTTL is how long a computed list of forbidden prefixes is kept
	// for one HOME value; the list follows symlinks on disk, which may
	// change under a long-running server.
	policyTTL = 2 * time.Second
	// maxDirAnswers is how many folder answers one policy keeps.
	maxDirAnswers = 1 << 14
	// maxPathBytes is the longest path the system opens (Linux PATH_MAX);
	// a longer one is refused without looking at its components.
	maxPathBytes = 4096
	// maxOtherHomes bounds the home folders of other accounts (folders of
	// /home, homes of /etc/passwd) a policy running as root lists;
	// maxPasswdBytes the part of /etc/passwd it reads.
	maxOtherHomes  = 256
	maxPasswdBytes = 1 << 20
)

// forbiddenMsg is what the agent says of a path it does not read.
const forbiddenMsg = "is not read (system or credential store, or git internals)"

// pathPolicy is the set of forbidden prefixes for one HOME value, with
// the answers it gave for folders (a folder is forbidden when it, or an
// ancestor, is a forbidden prefix or a git store); both live for policyTTL.
type pathPolicy struct {
	home     string
	at       time.Time
	prefixes map[string]bool
	// homes are the home folders, as written and resolved, of which
	// every credential store is forbidden by its name (homeStore): the
	// stores themselves are in prefixes only where they resolve
	// elsewhere.
	homes map[string]bool

	mu   sync.Mutex
	dirs map[string]bool

	// The identities of the credential stores' files with several links,
	// listed once per policy when first needed (policy_links.go);
	// linkedUnknown when the stores held more than could be listed.
	linkOnce      sync.Once
	linked        map[fileID]bool
	linkedUnknown bool
}

var policyCache struct {
	sync.Mutex
	p *pathPolicy
}

// currentPolicy returns the forbidden prefixes for the current HOME,
// computed again when HOME changed or the list is older than policyTTL.
func currentPolicy() *pathPolicy {
	home := os.Getenv("HOME")
	now := time.Now()
	policyCache.Lock()
	defer policyCache.Unlock()
	if p := policyCache.p; p != nil && p.home == home && now.Sub(p.at) < policyTTL {
		return p
	}
	prefixes, homes := forbiddenPrefixes(home)
	p := &pathPolicy{home: home, at: now, prefixes: prefixes, homes: homes, dirs: map[string]bool{}}
	policyCache.p = p
	return p
}

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

// homeStore reports whether path is, by its name, a credential store of
// one of the policy's home folders: path is a home folder joined with an
// entry of credentialStores.
func (p *pathPolicy) homeStore(path string) bool {
	if len(p.homes) == 0 {
		return false
	}
	names := storeNames()
	end := len(path)
	for range maxStoreComponents {
		slash := strings.LastIndexByte(path[:end], '/')
		if slash < 0 {
			return false
		}
		if names[path[slash+1:]] {
			h := path[:slash]
			if h == "" {
				h = "/"
			}
			if p.homes[h] {
				return true
			}
		}
		end = slash
	}
	return false
}

// resolutions memoizes resolveExisting over many paths: a path that does
// not exist is its parent's resolution and its own name, and a folder's
// resolution is found once.
type resolutions map[string]resolution

type resolution struct {
	path   string
	exists bool
}

// resolve is resolveExisting(p), remembered.
func (rs resolutions) resolve(p string) string { return rs.of(filepath.Clean(p)).path }

func (rs resolutions) of(p string) resolution {
	if r, ok := rs[p]; ok {
		return r
	}
	r := resolution{path: p}
	parent := filepath.Dir(p)
	switch {
	case len(p) > maxPathBytes:
	case parent == p:
		if real, err := filepath.EvalSymlinks(p); err == nil {
			r = resolution{real, true}
		}
	default:
		up := rs.of(parent)
		if up.exists {
			if fi, err := os.Lstat(p); err == nil {
				// Below a resolved folder, a name that is not a link
				// is its own resolution; a link is followed.
				if fi.Mode()&fs.ModeSymlink == 0 {
					r = resolution{filepath.Join(up.path, filepath.Base(p)), true}
					break
				}
				if real, err := filepath.EvalSymlinks(p); err == nil {
					r = resolution{real, true}
					break
				}
			}
		}
		r.path = filepath.Join(up.path, filepath.Base(p))
	}
	rs[p] = r
	return r
}

// resolveExisting resolves the symlinks of the longest existing prefix of
// path and appends the rest, so a credential store that does not exist yet
// under a linked folder is still placed where it would be created.
func resolveExisting(path string) string {
	if len(path) > maxPathBytes {
		return path
	}
	rest := ""
	for p := path; ; {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return path
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// forbidden reports whether an absolute, resolved path is a credential
// store, a system place, git internals, or lies inside one of them.
func forbidden(path string) bool {
	path, ok := cleanAbs(path)
	return !ok || forbiddenFile(path) || isGitDir(path)
}

// forbiddenFile is forbidden for a path known not to be a folder (a walk's
// entry, an opened regular file): it does not look for a git store in path
// itself, which saves a stat per file.
func forbiddenFile(path string) bool {
	path, ok := cleanAbs(path)
	if !ok || strings.Contains(path, "/.git/") || strings.HasSuffix(path, "/.git") || underAnyHome(path) {
		return true
	}
	p := currentPolicy()
	return p.prefixes[path] || p.homeStore(path) || p.forbiddenDir(filepath.Dir(path))
}

// cleanAbs makes path absolute and clean; ok is false when it cannot, or
// when the path is too long to name a file at all.
func cleanAbs(path string) (string, bool) {
	if len(path) > maxPathBytes {
		return "", false
	}
	if !filepath.IsAbs(path) {
		abs, err := filepath.Abs(path)
		if err != nil {
			return "", false
		}
		path = abs
	}
	return filepath.Clean(path), true
}

// forbiddenDir reports whether folder dir or one of its ancestors is a
// forbidden prefix or a git store; answers are kept with the policy.
func (p *pathPolicy) forbiddenDir(dir string) bool {
	p.mu.Lock()
	yes, ok := p.dirs[dir]
	p.mu.Unlock()
	if ok {
		return yes
	}
	yes = p.prefixes[dir] || p.homeStore(dir) || isGitDir(dir)
	if parent := filepath.Dir(dir); !yes && parent != dir {
		yes = p.forbiddenDir(parent)
	}
	p.mu.Lock()
	if len(p.dirs) >= maxDirAnswers {
		clear(p.dirs)
	}
	p.dirs[dir] = yes
	p.mu.Unlock()
	return yes
}

// isGitDir reports whether dir is a git store, by what git itself checks:
// a HEAD file with an objects/ and a refs/ folder (a .git folder, a bare
// x.git, a --separate-git-dir store), or HEAD with a commondir file (the
// store of a linked worktree).
func isGitDir(dir string) bool {
	head, err := os.Lstat(filepath.Join(dir, "HEAD"))
	if err != nil || !(head.Mode().IsRegular() || head.Mode()&fs.ModeSymlink != 0) {
		return false
	}
	if fi, err := os.Lstat(filepath.Join(dir, "commondir")); err == nil && fi.Mode().IsRegular() {
		return true
	}
	objects, err1 := os.Stat(filepath.Join(dir, "objects"))
	refs, err2 := os.Stat(filepath.Join(dir, "refs"))
	return err1 == nil && err2 == nil && objects.IsDir() && refs.IsDir()
}

// refuseSpecial returns an E_PATH_FORBIDDEN error when path (followed) is
// a FIFO, socket, device or other non-regular file, which the agent never
// opens for a read that could block; nil for a regular file, a folder or
// a path it cannot stat (the caller reports that).
func refuseSpecial(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	if k := pipeline.SpecialKind(fi.Mode()); k != "" {
		return &Error{Code: CodePathForbidden, Msg: shorten(path, maxEchoBytes) + " is " + k + "; the agent reads regular files only"}
	}
	return nil
}

// errPathForbidden is the error of a file whose real path is forbidden,
// wrapped in an *fs.PathError.
var errPathForbidden = errors.New(forbiddenMsg)

// openChecked opens path for the agent through pipeline.OpenChecked: no
// symlink followed in its last component, no blocking open, a regular
// file only, a real path that the policy allows, and no second link to a
// credential file (refuseLinked). A file swapped for a
// symlink or a FIFO between the walk and the open is therefore never read.
func openChecked(path string) (*os.File, error) {
	f, _, err := checkedOpen(path, pipeline.OpenCheckedStat)
	return f, err
}

// openCheckedFile is openChecked for a file the pipeline reads
// (pipeline.OpenCheckedFile: a bare descriptor where it can be), with the
// file's fstat at the check (one fstat serves the checks and the
// revision).
func openCheckedFile(path string) (pipeline.File, os.FileInfo, error) {
	return checkedOpen(path, pipeline.OpenCheckedFile)
}

// checkedOpen opens path with one of the pipeline's checked opens, with
// the policy as its refusal, and refuses a second link to a credential
// file.
func checkedOpen[F io.Closer](path string, open func(string, func(string) error) (F, os.FileInfo, error)) (F, os.FileInfo, error) {
	var none F
	f, fi, err := open(path, func(real string) error {
		if forbiddenFile(real) {
			return errPathForbidden
		}
		return nil
	})
	if err != nil {
		return none, nil, err
	}
	if err := refuseLinked(fi, path); err != nil {
		f.Close()
		return none, nil, err
	}
	return f, fi, nil
}

// errWriteForbidden is the refusal of a write into a forbidden place.
var errWriteForbidden = errors.New("a system or credential store, or git internals, is never written")

// WriteRefusal is the path policy of a rewrite's apply, the agent's and
// the CLI's (astsearch.Guard): an error when the real path real is a
// credential store, a system place or git internals, or lies inside one.
func WriteRefusal(real string) error {
	if forbidden(real) {
		return errWriteForbidden
	}
	return nil
}
