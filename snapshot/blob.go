package snapshot

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"time"
)

// blobPrefix starts the name of every blob file in the state folder, so
// that blobs never meet snapshot directories, cursors or temporary files.
const blobPrefix = "b-"

// errBlobName refuses a blob name that is not one plain file name.
var errBlobName = errors.New("blob name must be 1-64 letters, digits, '-' or '.'")

// validBlobName accepts names of letters, digits, '-' and '.', not
// starting with '.', of at most 64 bytes.
func validBlobName(name string) bool {
	if name == "" || len(name) > 64 || name[0] == '.' {
		return false
	}
	for _, c := range []byte(name) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// ReadBlob reads the state file name (written by WriteBlob) from the
// store's state folder with the discipline of snapshot files: the folder
// is checked as for a snapshot, the file is opened without following a
// link or blocking, must be a regular file of at most limit bytes, and is
// read under the folder's shared lock. A store without a state folder has
// no blobs (an error).
func (s *Store) ReadBlob(name string, limit int64) ([]byte, error) {
	if !validBlobName(name) {
		return nil, errBlobName
	}
	if s.dir == "" {
		return nil, errors.New("no state folder")
	}
	if err := s.prepareDir(false); err != nil {
		return nil, err
	}
	var data []byte
	err := s.withLock(false, func() error {
		var err error
		data, err = readState(s.dir+"/"+blobPrefix+name, limit)
		return err
	})
	return data, err
}

// OpenBlob opens the state file name (written by WriteBlob) for reading
// as ReadBlob reads it, checked alike (a regular file of this user, of at
// most limit bytes, no link followed), and returns it with its size: for
// a reader that maps it or reads only parts of it. The caller closes it.
// WriteBlob replaces a blob by renaming a new file over it, never writes
// one in place, so the open file stays the version that was opened.
func (s *Store) OpenBlob(name string, limit int64) (*os.File, int64, error) {
	if !validBlobName(name) {
		return nil, 0, errBlobName
	}
	if s.dir == "" {
		return nil, 0, errors.New("no state folder")
	}
	if err := s.prepareDir(false); err != nil {
		return nil, 0, err
	}
	var f *os.File
	var size int64
	err := s.withLock(false, func() error {
		of, fi, err := openState(s.dir+"/"+blobPrefix+name, limit)
		if err != nil {
			return err
		}
		f, size = of, fi.Size()
		return nil
	})
	return f, size, err
}

// LockBlob takes the build lock of blob name, a lock file of its own
// beside it (never the folder's lock: readers and WriteBlob go on),
// waiting up to wait for another process that holds it, so that a
// process about to make a blob that another is making can wait and read
// that one instead; the wait ends early, with an error, when ctx is
// cancelled. unlock releases it.
func (s *Store) LockBlob(ctx context.Context, name string, wait time.Duration) (unlock func(), err error) {
	if !validBlobName(name) {
		return nil, errBlobName
	}
	if s.dir == "" {
		return nil, errors.New("no state folder")
	}
	if err := s.prepareDir(true); err != nil {
		return nil, err
	}
	return lockFile(s.dir+"/"+blobPrefix+name+".lock", true, wait, ctx.Done())
}

// WriteBlob writes data as the state file name, atomically (a temporary
// file renamed into place) under the folder's shared lock, creating the
// state folder (mode 0700) when needed.
func (s *Store) WriteBlob(name string, data []byte) error {
	return s.WriteBlobFrom(name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteBlobFrom is WriteBlob for data that write writes to the file in
// pieces (a large blob need not be one buffer first). When write fails
// the file is not written and its error is returned.
func (s *Store) WriteBlobFrom(name string, write func(io.Writer) error) error {
	if !validBlobName(name) || strings.Contains(name, "/") {
		return errBlobName
	}
	if s.dir == "" {
		return errors.New("no state folder")
	}
	if err := s.prepareDir(true); err != nil {
		return err
	}
	return s.withLock(false, func() error {
		return writeAtomicFrom(s.dir, blobPrefix+name, write, s.now())
	})
}

// errLockCancelled is the error of a lock wait its context ended.
var errLockCancelled = errors.New("the wait for a lock was cancelled")
