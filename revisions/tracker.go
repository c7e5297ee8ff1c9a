package revisions

import (
	"io"
	"os"

	"github.com/cespare/xxhash/v2"
)

// Tracker records the revision of one open file while the pipeline reads it.
// It captures the identity when created, hashes the bytes that flow through
// Reader (or are passed to Write), and re-checks the identity in Finish.
//
// Wrap the raw file, before any decompression or transcoding: the hash and
// the byte count must describe the file on disk, which is what Check
// re-hashes later. A Tracker is used by one goroutine at a time.
type Tracker struct {
	f      File
	before Identity
	d      *xxhash.Digest
	n      int64
	err    error
}

// NewTracker captures the identity of f (fstat) at the start of its read.
func NewTracker(f *os.File) (*Tracker, error) {
	id, err := IdentityOf(f)
	if err != nil {
		return nil, err
	}
	return &Tracker{f: f, before: id, d: xxhash.New()}, nil
}

// NewTrackerStat is NewTracker for a file whose fstat at open the caller
// holds (fi, from f itself, before any byte was read).
func NewTrackerStat(f File, fi os.FileInfo) *Tracker {
	return &Tracker{f: f, before: identityOf(fi), d: xxhash.New()}
}

// Identity returns the identity captured when the Tracker was created.
func (t *Tracker) Identity() Identity { return t.before }

// Reader returns a reader that reads from r and hashes every byte it
// returns. r is normally the tracked file itself or a buffered reader over
// it; the bytes are hashed as they pass, with no second read.
func (t *Tracker) Reader(r io.Reader) io.Reader {
	return &hashReader{t: t, r: r}
}

// Write hashes p as the next bytes of the file, for pipelines that obtain
// the content some other way than through Reader (one large read, a mapped
// file). It never fails.
func (t *Tracker) Write(p []byte) (int, error) {
	t.d.Write(p)
	t.n += int64(len(p))
	return len(p), nil
}

// BytesRead returns how many bytes have been hashed so far.
func (t *Tracker) BytesRead() int64 { return t.n }

// Finish re-stats the file and returns the revision that was read: the
// identity at open and the hash of the bytes seen. Verified is set only when
// the open file's identity is unchanged, the path still names that same
// file, no read error occurred and exactly Size bytes were hashed. A file
// rewritten in place with the same size within the filesystem's timestamp
// granularity cannot be detected here; Check's content hash catches it later.
func (t *Tracker) Finish() Revision {
	rev := Revision{Identity: t.before, Hash: t.d.Sum64()}
	if t.err != nil || t.n != t.before.Size {
		return rev
	}
	// The path may have been renamed over or removed while the file was
	// read: then what was read is no longer what the path shows. When
	// the path still names the file (same device and inode), its stat is
	// the open file's own, so that one stat checks both; without inode
	// numbers the open file is asked too.
	name := t.f.Name()
	if name == "" || t.before.Ino == 0 {
		if fi, err := t.f.Stat(); err != nil || !fi.Mode().IsRegular() || identityOf(fi) != t.before {
			return rev
		}
	}
	if name != "" {
		id, regular, err := statRegular(name)
		if err != nil || !regular || id != t.before {
			return rev
		}
	}
	rev.Verified = true
	return rev
}

type hashReader struct {
	t *Tracker
	r io.Reader
}

func (h *hashReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if n > 0 {
		h.t.d.Write(p[:n])
		h.t.n += int64(n)
	}
	if err != nil && err != io.EOF && h.t.err == nil {
		h.t.err = err
	}
	return n, err
}
