package pipeline

import (
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"syscall"
)

// mapOpen memory-maps an open regular file read-only, as rg does for the
// few files named on its command line: no copy, the page cache is
// searched in place. nil data for an empty file or anything that cannot
// be mapped.
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

// readWhole returns all the bytes of the file at path, for a search that
// needs them at once (-U, --mmap), opening it once: a regular file of at
// most maxReadWhole bytes is read into a pooled buffer (or, with mmap, or
// when larger, mapped), and anything else (a FIFO, a device, an empty or
// unmappable file, which may still have bytes to give: /proc) is read to
// its end from the same descriptor, so that a FIFO's writer is never met
// twice. release gives the buffer or mapping back. regular says that the
// walk saw a regular file (rawFile); the file is a rawFile, not an
// os.File: each os.Open and Close of a regular file cost four fcntl and
// epoll_ctl calls and a finalizer.
func readWhole(path string, regular, mmap bool) ([]byte, func(), error) {
	f, err := openRaw(path, regular)
	if err != nil {
		return nil, nil, err
	}
	defer f.release()
	var st syscall.Stat_t
	if err := syscall.Fstat(f.fd, &st); err != nil {
		return nil, nil, osErr(err)
	}
	isReg := st.Mode&syscall.S_IFMT == syscall.S_IFREG
	if isReg && st.Size > 0 && (mmap || st.Size > maxReadWhole) && st.Size == int64(int(st.Size)) {
		if data, err := syscall.Mmap(f.fd, 0, int(st.Size), syscall.PROT_READ, syscall.MAP_SHARED); err == nil {
			return data, func() { _ = syscall.Munmap(data) }, nil
		}
	}
	bp := wholePool.Get().(*[]byte)
	b := (*bp)[:0]
	if need := int(min(max(st.Size, 0), maxReadWhole)) + 1; isReg && cap(b) < need {
		b = make([]byte, 0, need)
	}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // the file grew (or is no regular file): more room
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
	return b, func() {
		if cap(b) <= maxKeptWhole {
			*bp = b[:0]
		}
		wholePool.Put(bp)
	}, nil
}
