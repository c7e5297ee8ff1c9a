package gitrev

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// ErrNotRepository is returned (wrapped) by Open when no repository holds
// the path.
var ErrNotRepository = errors.New("not in a Git repository")

// ErrRefused is returned (wrapped) by Open for a repository that is not
// read: a partial clone, a promisor remote or pack, an object format or
// ref store go-git cannot read.
var ErrRefused = errors.New("repository refused")

// Repo is one repository opened for reading.
type Repo struct {
	top    string              // the working tree's top folder, canonical
	gitDir string              // the repository's git folder (a linked worktree's own)
	common string              // the common git folder (objects, refs, config)
	st     *filesystem.Storage // refs and the shallow file
	odb    *odb                // objects
	lim    Limits
	// mu serialises the storage's reads (go-git's storage is not safe
	// for concurrent use).
	mu sync.Mutex
}

// Open finds the repository whose working tree holds path (a file or a
// folder, which need not exist: its nearest existing parent is looked
// at) and opens it for reading, with the bounds lim.
func Open(path string, lim Limits) (*Repo, error) {
	start, err := canonical(path)
	if err != nil {
		return nil, err
	}
	top, gitDir, err := discover(start)
	if err != nil {
		return nil, err
	}
	common := gitDir
	if b, err := readSmall(filepath.Join(gitDir, "commondir"), maxGitFileSize); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		common = filepath.Clean(c)
	}
	r := &Repo{top: top, gitDir: gitDir, common: common, lim: lim}
	if err := r.checkReadable(); err != nil {
		return nil, err
	}
	var fs = osfs.New(gitDir)
	if common != gitDir {
		fs = dotgit.NewRepositoryFilesystem(osfs.New(gitDir), osfs.New(common))
	}
	r.st = filesystem.NewStorageWithOptions(fs, cache.NewObjectLRU(objectCacheSize), filesystem.Options{})
	r.odb = newODB(filepath.Join(common, "objects"), lim.MaxInflated)
	return r, nil
}

// Top returns the canonical path of the working tree's top folder.
func (r *Repo) Top() string { return r.top }

// Close releases the files the storage keeps open.
func (r *Repo) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.odb.close()
	return r.st.Close()
}

// discover walks up from start to the folder holding .git.
func discover(start string) (top, gitDir string, err error) {
	for d := start; ; {
		g := filepath.Join(d, ".git")
		if st, err := os.Stat(g); err == nil {
			if st.IsDir() {
				return d, g, nil
			}
			if st.Mode().IsRegular() {
				b, err := readSmall(g, maxGitFileSize)
				if err != nil {
					return "", "", err
				}
				line, _, _ := strings.Cut(string(b), "\n")
				line = strings.TrimSuffix(line, "\r")
				dir, ok := strings.CutPrefix(line, "gitdir: ")
				if !ok {
					return "", "", fmt.Errorf("%s: not a gitdir file", g)
				}
				if !filepath.IsAbs(dir) {
					dir = filepath.Join(d, dir)
				}
				return d, filepath.Clean(dir), nil
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", fmt.Errorf("%s: %w", start, ErrNotRepository)
		}
		d = parent
	}
}

// checkReadable refuses what cannot be read without a fetch, or at all.
func (r *Repo) checkReadable() error {
	refuse := func(format string, a ...any) error {
		return fmt.Errorf("%s: %s: %w", r.top, fmt.Sprintf(format, a...), ErrRefused)
	}
	for _, p := range []string{filepath.Join(r.common, "config"), filepath.Join(r.gitDir, "config.worktree")} {
		b, err := readSmall(p, maxConfigSize)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			return err
		}
		cfg := config.New()
		if err := config.NewDecoder(bytes.NewReader(b)).Decode(cfg); err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		ext := cfg.Section("extensions")
		if v := ext.Option("partialclone"); v != "" {
			return refuse("a partial clone (extensions.partialClone = %s); its missing objects would have to be fetched", v)
		}
		if v := ext.Option("objectformat"); v != "" && !strings.EqualFold(v, "sha1") {
			return refuse("object format %s is not supported", v)
		}
		if v := ext.Option("refstorage"); v != "" && !strings.EqualFold(v, "files") {
			return refuse("ref storage %s is not supported", v)
		}
		for _, sub := range cfg.Section("remote").Subsections {
			if isTrue(sub.Option("promisor")) {
				return refuse("remote %q is a promisor remote; its missing objects would have to be fetched", sub.Name)
			}
			if sub.Option("partialclonefilter") != "" {
				return refuse("remote %q has a partial clone filter; its missing objects would have to be fetched", sub.Name)
			}
		}
	}
	packs, _ := filepath.Glob(filepath.Join(r.common, "objects", "pack", "*.promisor"))
	if len(packs) > 0 {
		return refuse("it holds promisor packs (%s); missing objects would have to be fetched", filepath.Base(packs[0]))
	}
	return nil
}

// isTrue is Git's boolean: true, yes, on, 1 (or a key with no value,
// which the decoder gives as "").
func isTrue(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "yes", "on", "1":
		return true
	}
	return false
}

// readSmall reads a file of at most limit bytes.
func readSmall(path string, limit int64) ([]byte, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, limit)
	}
	return b, nil
}

// canonical returns path absolute with its symlinks resolved; a path that
// does not exist keeps its missing tail as given under its nearest
// existing parent, resolved.
func canonical(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	var tail []string
	for p := abs; ; {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			for i := len(tail) - 1; i >= 0; i-- {
				real = filepath.Join(real, tail[i])
			}
			return real, nil
		}
		parent := filepath.Dir(p)
		if parent == p {
			return abs, nil
		}
		tail = append(tail, filepath.Base(p))
		p = parent
	}
}

// Canonical returns path as Open and Tree compare it with the working
// tree's top: absolute, symlinks resolved as far as the path exists.
func Canonical(path string) (string, error) { return canonical(path) }
