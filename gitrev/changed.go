package gitrev

import (
	"bytes"
	"crypto/sha1"
	"fmt"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"
)

// Changes tells which lines of working files were added or changed since
// one commit. It is safe for concurrent use.
type Changes struct {
	t *Tree
	c Commit
}

// Changes returns the changes of the working tree since commit c.
func (r *Repo) Changes(c Commit) *Changes { return &Changes{t: r.Tree(c), c: c} }

// Commit returns the commit the changes are counted from.
func (c *Changes) Commit() Commit { return c.c }

// Lines returns the lines of data, the content of the working file at
// path (a path on disk, as a walk spells it), that were added or changed
// since the commit, as sorted, disjoint runs; none when the file is the
// commit's. A file the commit does not have (untracked, or added since)
// is all added (so are the files of .git, which no commit holds, when a
// search with --hidden reads them). Lines end at term (the search's line terminator). The
// blob is compared as stored: no filter, no line-ending conversion.
// Past Limits.MaxDiffEdits or MaxDiffLines the part between the first and
// the last difference counts as changed whole (approx is then set).
func (c *Changes) Lines(path string, data []byte, term byte) (lines []LineRange, approx bool, err error) {
	r := c.t.r
	rel, err := r.rel(path)
	if err != nil {
		return nil, false, err
	}
	c.t.mu.Lock()
	h, ok, err := c.t.blob(rel)
	c.t.mu.Unlock()
	if err == nil && ok && blobHash(data) == h {
		// The file is the commit's: its blob need not be read.
		return nil, false, nil
	}
	var old []byte
	if err == nil && ok {
		_, old, err = r.readObjectLocked(h, r.lim.MaxBlobSize)
	}
	if err != nil {
		return nil, false, fmt.Errorf("at %s: %w", c.c.Hash.String()[:12], err)
	}
	if !ok {
		if n := countLines(data, term); n > 0 {
			return []LineRange{{1, n}}, false, nil
		}
		return nil, false, nil
	}
	if bytes.Equal(old, data) {
		return nil, false, nil
	}
	lines, approx = addedLines(old, data, term, r.lim.MaxDiffEdits, r.lim.MaxDiffLines)
	return lines, approx, nil
}

// countLines is the number of lines of data.
func countLines(data []byte, term byte) int {
	n := bytes.Count(data, []byte{term})
	if len(data) > 0 && data[len(data)-1] != term {
		n++
	}
	return n
}

// blobHash is the object name Git gives data stored as a blob.
func blobHash(data []byte) plumbing.Hash {
	d := sha1.New()
	d.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	d.Write(data)
	var h plumbing.Hash
	copy(h[:], d.Sum(nil))
	return h
}
