package pipeline

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
	"syscall"
)

// mapFile memory-maps a regular file read-only, as rg does for the few
// files named on its command line: no copy, the page cache is searched in
// place. It returns nil data (and no error) for an empty file or anything
// that cannot be mapped, so the caller reads it instead.
func mapFile(path string) ([]byte, func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, osErr(err)
	}
	defer f.Close()
	data, release := mapOpen(f)
	return data, release, nil
}

// mapOpen maps an open file as mapFile does; nil data when it cannot.
func mapOpen(f File) ([]byte, func()) {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() == 0 || st.Size() != int64(int(st.Size())) {
		return nil, nil
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil
	}
	return data, func() { _ = syscall.Munmap(data) }
}

// guardFault runs fn with memory faults turned into panics and recovered:
// a mapped file truncated while it is searched raises SIGBUS, which becomes
// an error for that file instead of a crash.
func guardFault(fn func() error) (err error) {
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			err = fmt.Errorf("the file changed while it was read (%v)", r)
		}
	}()
	return fn()
}

// wholePool holds the buffers readWhole reads files into.
var wholePool = sync.Pool{New: func() any { return new([]byte) }}

// readWhole reads a regular file of at most maxReadWhole bytes whole into
// a pooled buffer (release returns it); nil data (and no error) for an
// empty, larger or irregular file, which the caller maps or reads instead.
// regular says that the walk saw a regular file (rawFile). The file is a
// rawFile, not an os.File: each os.Open and Close of a regular file cost
// four fcntl and epoll_ctl calls and a finalizer, and -U reads every
// searched file this way.
func readWhole(path string, regular bool) ([]byte, func(), error) {
	f, err := openRaw(path, regular)
	if err != nil {
		return nil, nil, err
	}
	defer f.release()
	var st syscall.Stat_t
	if err := syscall.Fstat(f.fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Size == 0 || st.Size > maxReadWhole {
		return nil, nil, nil
	}
	bp := wholePool.Get().(*[]byte)
	b := (*bp)[:0]
	if need := int(st.Size) + 1; cap(b) < need {
		b = make([]byte, 0, need)
	}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // the file grew: more room
		}
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			wholePool.Put(bp)
			return nil, nil, err // in rg's words already (rawFile)
		}
	}
	if len(b) == 0 {
		wholePool.Put(bp)
		return nil, nil, nil
	}
	return b, func() {
		if cap(b) <= maxKeptWhole {
			*bp = b[:0]
		}
		wholePool.Put(bp)
	}, nil
}
