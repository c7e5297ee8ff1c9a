package pipeline

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// fdFile is a File that is a bare descriptor (OpenCheckedFile).
type fdFile struct {
	fd   int
	name string
}

// The file is regular (checked at open), so its calls are raw system
// calls, as the pipeline's own reads of regular files are (rawsys_linux.go:
// no syscall hand-off, no monitor thread waking every 20 µs).

func (f *fdFile) Read(p []byte) (int, error) {
	if f.fd < 0 {
		return 0, os.ErrClosed
	}
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := rawRead(f.fd, p)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, &fs.PathError{Op: "read", Path: f.name, Err: err}
		}
		if n == 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f *fdFile) Close() error {
	if f.fd < 0 {
		return os.ErrClosed
	}
	err := rawClose(f.fd)
	f.fd = -1
	if err != nil {
		return &fs.PathError{Op: "close", Path: f.name, Err: err}
	}
	return nil
}

func (f *fdFile) Fd() uintptr  { return uintptr(f.fd) }
func (f *fdFile) Name() string { return f.name }

func (f *fdFile) Stat() (fs.FileInfo, error) {
	st := &syscall.Stat_t{}
	for {
		_, _, errno := syscall.RawSyscall(syscall.SYS_FSTAT, uintptr(f.fd), uintptr(unsafe.Pointer(st)), 0)
		var err error
		if errno != 0 {
			err = errno
		}
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "stat", Path: f.name, Err: err}
		}
		return &statInfo{name: filepath.Base(f.name), st: st}, nil
	}
}

// statInfo is an fs.FileInfo of a stat result, with os.Stat's answers
// (TestStatInfoAsOS).
type statInfo struct {
	name string
	st   *syscall.Stat_t
}

func (s *statInfo) Name() string       { return s.name }
func (s *statInfo) Size() int64        { return s.st.Size }
func (s *statInfo) ModTime() time.Time { return time.Unix(s.st.Mtim.Sec, s.st.Mtim.Nsec) }
func (s *statInfo) IsDir() bool        { return s.Mode().IsDir() }
func (s *statInfo) Sys() any           { return s.st }

func (s *statInfo) Mode() fs.FileMode {
	m := fs.FileMode(s.st.Mode & 0o777)
	switch s.st.Mode & syscall.S_IFMT {
	case syscall.S_IFBLK:
		m |= fs.ModeDevice
	case syscall.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		m |= fs.ModeDir
	case syscall.S_IFIFO:
		m |= fs.ModeNamedPipe
	case syscall.S_IFLNK:
		m |= fs.ModeSymlink
	case syscall.S_IFSOCK:
		m |= fs.ModeSocket
	}
	if s.st.Mode&syscall.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if s.st.Mode&syscall.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if s.st.Mode&syscall.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// openCheckedFD is OpenCheckedFile's descriptor path: ok is false when
// openat2 cannot open path with no symlink in it (the caller then takes
// the os.File path, which says why); otherwise the file or the error of
// its checks, as OpenCheckedStat gives them.
func openCheckedFD(path string, refuse func(real string) error) (File, fs.FileInfo, error, bool) {
	how := unix.OpenHow{
		Flags:   uint64(unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC),
		Resolve: unix.RESOLVE_NO_SYMLINKS,
	}
	fd, err := rawOpenat2(path, &how)
	if err != nil {
		return nil, nil, nil, false
	}
	f := &fdFile{fd: fd, name: path}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err, true
	}
	if k := SpecialKind(fi.Mode()); k != "" || !fi.Mode().IsRegular() {
		f.Close()
		if k == "" {
			k = "a folder"
		}
		return nil, nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%s, %w", k, ErrNotRegular)}, true
	}
	if refuse != nil {
		// No symlink was followed: the real path is the path made
		// absolute.
		real, err := filepath.Abs(path)
		if err != nil {
			f.Close()
			return nil, nil, nil, false
		}
		if err := refuse(filepath.Clean(real)); err != nil {
			f.Close()
			return nil, nil, &fs.PathError{Op: "open", Path: path, Err: err}, true
		}
	}
	return f, fi, nil, true
}

// OpenRegular opens a file that the walk saw as a regular file, as
// os.Open does (symlinks followed), as a bare descriptor with its fstat: no
// os.File flag query, poller registration, finalizer or scheduler
// hand-off per file. Anything else at path (it changed since the walk)
// is opened by os.Open, as before.
func OpenRegular(path string) (File, fs.FileInfo, error) {
	var cpath []byte
	fd, err := rawOpen(&cpath, path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	f := &fdFile{fd: fd, name: path}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return openStat(path)
	}
	return f, fi, nil
}

// rawOpenat2 is unix.Openat2 from the working directory as a raw system
// call: with O_NONBLOCK it does not wait for a FIFO's writer, and what it
// opens is checked to be a regular file before any read.
func rawOpenat2(path string, how *unix.OpenHow) (int, error) {
	if strings.IndexByte(path, 0) >= 0 {
		return -1, syscall.EINVAL
	}
	b := append([]byte(path), 0)
	atFDCWD := unix.AT_FDCWD
	for {
		fd, _, errno := syscall.RawSyscall6(unix.SYS_OPENAT2, uintptr(atFDCWD), uintptr(unsafe.Pointer(&b[0])),
			uintptr(unsafe.Pointer(how)), unsafe.Sizeof(*how), 0, 0)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			return -1, errno
		}
		return int(fd), nil
	}
}
