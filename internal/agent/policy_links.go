package agent

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/evgrep/evgrep/internal/credpolicy"
)

// Hard links: a link made inside a project to a credential file (`ln
// ~/.ssh/id_rsa proj/x.txt`) has a path the policy allows, so paths alone
// cannot refuse it. A regular file with more than one link is therefore
// checked by identity: it is refused when its device and inode are those of
// a file in a credential store or system place (the stores are listed,
// bounded, the first time a policy meets such a file), and refused too
// when the stores held more entries than are listed, since it can then not
// be proved safe. Files with one link, nearly all, cost nothing.

// Link policy bounds.
const (
	// maxStoreEntries bounds the entries of the credential stores listed
	// for the identities of their files.
	maxStoreEntries = 1 << 14
	// maxStoreDepth bounds the folder depth listed below a store.
	maxStoreDepth = 16
)

// fileID is a file's identity: device and inode.
type fileID struct{ dev, ino uint64 }

// pseudoPrefixes hold no files a link can share (other file systems).
var pseudoPrefixes = map[string]bool{"/proc": true, "/sys": true, "/dev": true}

// linkedStore reports whether a file with several links, of identity id,
// is (or may be) one of the files of a credential store or system place.
func (p *pathPolicy) linkedStore(id fileID) bool {
	p.linkOnce.Do(func() {
		p.linked = map[fileID]bool{}
		n := 0
		for pre := range p.Prefixes {
			if !pseudoPrefixes[pre] && !p.listIDs(pre, 0, &n) {
				p.linkedUnknown = true
				return
			}
		}
		for h := range p.Homes {
			for _, e := range credpolicy.Stores() {
				if !p.listIDs(filepath.Join(h, e), 0, &n) {
					p.linkedUnknown = true
					return
				}
			}
		}
	})
	return p.linkedUnknown || p.linked[id]
}

// listIDs records the identities of the linked regular files at path and
// below it (symlinks not followed: their targets are prefixes of their
// own); false when more than maxStoreEntries or maxStoreDepth were met.
func (p *pathPolicy) listIDs(path string, depth int, n *int) bool {
	if *n++; *n > maxStoreEntries || depth > maxStoreDepth {
		return false
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return true
	}
	if fi.Mode().IsRegular() {
		if dev, ino, links, ok := linkInfo(fi); ok && links > 1 {
			p.linked[fileID{dev, ino}] = true
		}
		return true
	}
	if !fi.IsDir() {
		return true
	}
	names, more, err := credpolicy.ListDir(path, maxStoreEntries-*n)
	if more {
		return false
	}
	if err != nil {
		return true
	}
	for _, name := range names {
		if !p.listIDs(filepath.Join(path, name), depth+1, n) {
			return false
		}
	}
	return true
}

// refuseLinked is openChecked's check of an opened file: an error when it
// has several links and the policy cannot tell it from a credential file.
func refuseLinked(fi os.FileInfo, path string) error {
	dev, ino, links, ok := linkInfo(fi)
	if !ok || links <= 1 || !fi.Mode().IsRegular() {
		return nil
	}
	if currentPolicy().linkedStore(fileID{dev, ino}) {
		return &fs.PathError{Op: "open", Path: path, Err: errPathForbidden}
	}
	return nil
}

// underAnyHome reports, for a process running as root, whether path is a
// credential store (or in one) of a folder of /home or of /root, whether
// or not that folder existed when the policy was made.
func underAnyHome(path string) bool {
	if !runningAsRoot {
		return false
	}
	var rest string
	switch {
	case strings.HasPrefix(path, "/root/"):
		rest = path[len("/root/"):]
	case strings.HasPrefix(path, "/home/"):
		_, r, ok := strings.Cut(path[len("/home/"):], "/")
		if !ok {
			return false
		}
		rest = r
	default:
		return false
	}
	for _, s := range credpolicy.Stores() {
		if rest == s || strings.HasPrefix(rest, s+"/") {
			return true
		}
	}
	return false
}

// runningAsRoot: the process can read every user's files (a variable
// for the tests).
var runningAsRoot = credpolicy.RunningAsRoot()
