package revisions

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/cespare/xxhash/v2"
)

// Status is the result of comparing a file on disk with a recorded revision.
type Status int

const (
	// Unknown is returned with an error when the comparison could not be
	// made (permission denied, I/O error). Treat it like Changed.
	Unknown Status = iota
	// Same means the file is still the recorded revision.
	Same
	// Changed means the file differs from the recorded revision (or the
	// recorded revision was never verified and cannot be vouched for).
	Changed
	// Missing means no file exists at the path any more.
	Missing
)

// String returns "unknown", "same", "changed" or "missing".
func (s Status) String() string {
	switch s {
	case Same:
		return "same"
	case Changed:
		return "changed"
	case Missing:
		return "missing"
	}
	return "unknown"
}

// Check reports whether the file at path is still revision rev. The identity
// is compared first; when it matches and the file is at most RehashLimit
// bytes, the content is hashed again and must equal rev.Hash. Larger files
// are judged by identity alone, and only when rev was verified.
func Check(path string, rev Revision) (Status, error) {
	_, st, err := verify(path, rev, RehashLimit, false)
	return st, err
}

// ReadVerified reads the file at path and returns its content together with
// the status of Check, so that what is shown is exactly what was verified
// (no window between a check and a second read). When the file is larger
// than limit, only its first limit bytes are returned and the identity alone
// decides; len(data) < rev.Size tells the caller the data was cut. data is
// nil unless the status is Same. A limit <= 0 means RehashLimit.
func ReadVerified(path string, rev Revision, limit int64) ([]byte, Status, error) {
	if limit <= 0 {
		limit = RehashLimit
	}
	return verify(path, rev, limit, true)
}

func verify(path string, rev Revision, limit int64, keep bool) ([]byte, Status, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return missingOr(err)
	}
	if !fi.Mode().IsRegular() || identityOf(fi) != rev.Identity {
		return nil, Changed, nil
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return missingOr(err)
	}
	defer f.Close()
	fi, err = f.Stat()
	if err != nil {
		return nil, Unknown, err
	}
	if !fi.Mode().IsRegular() || identityOf(fi) != rev.Identity {
		return nil, Changed, nil
	}
	size := rev.Size
	if size > limit {
		if !rev.Verified {
			return nil, Changed, nil
		}
		var data []byte
		if keep {
			data = make([]byte, limit)
			if _, err := io.ReadFull(f, data); err != nil {
				return nil, Changed, nil
			}
			if id, err := IdentityOf(f); err != nil || id != rev.Identity {
				return nil, Changed, nil
			}
		}
		return data, Same, nil
	}
	var (
		data []byte
		sum  uint64
		n    int64
	)
	if keep {
		// One byte more than the size shows a file that grew in place.
		data = make([]byte, size+1)
		m, err := io.ReadFull(f, data)
		if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
			return nil, Unknown, err
		}
		data, n = data[:m], int64(m)
		sum = xxhash.Sum64(data)
	} else {
		d := xxhash.New()
		m, err := io.Copy(d, io.LimitReader(f, size+1))
		if err != nil {
			return nil, Unknown, err
		}
		n, sum = m, d.Sum64()
	}
	if n != size || sum != rev.Hash {
		return nil, Changed, nil
	}
	if id, err := IdentityOf(f); err != nil || id != rev.Identity {
		return nil, Changed, nil
	}
	return data, Same, nil
}

// missingOr maps "no such file" (also a path whose directory became a
// file) to Missing and other errors to Unknown.
func missingOr(err error) ([]byte, Status, error) {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, Missing, nil
	}
	return nil, Unknown, err
}
