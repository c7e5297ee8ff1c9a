//go:build linux

package walker

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// dirReader lists directories with getdents64 into a reusable buffer, in
// the order the kernel returns the entries (the order of Rust's
// fs::read_dir, which ripgrep uses), reading each entry's type and inode
// from the listing so that no stat is needed for most entries.
type dirReader struct {
	buf   []byte
	names []byte
	offs  []int
	// nameBuf holds the NUL-terminated name of the entry statEntries
	// stats.
	nameBuf []byte
}

func newDirReader() *dirReader {
	return &dirReader{buf: make([]byte, direntBufSize)}
}

// list reads the directory path: its entries but "." and "..", in the
// kernel's order, and, when wantID is set, its own device and inode; with
// wantStat, each entry listed as a regular file gets its lstat result
// (fstatat relative to the open directory). A failure to open is returned
// as is; a failure while reading returns the entries read so far with the
// error.
func (r *dirReader) list(path string, wantID, wantStat bool, ents []dirent) ([]dirent, FileID, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return ents, FileID{}, err
	}
	defer syscall.Close(fd)
	var id FileID
	if wantID {
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil {
			return ents, FileID{}, err
		}
		id = FileID{Dev: uint64(st.Dev), Ino: st.Ino}
	}
	first := len(ents)
	ents, err = r.readAll(fd, ents)
	if wantStat {
		r.statEntries(fd, ents[first:])
	}
	return ents, id, err
}

// statEntries gives each entry listed as a regular file its lstat result,
// relative to the open directory fd (one allocation for them all; an entry
// that cannot be stat'ed keeps none).
func (r *dirReader) statEntries(fd int, ents []dirent) {
	n := 0
	for i := range ents {
		if ents[i].typ == typeFile {
			n++
		}
	}
	if n == 0 {
		return
	}
	sts := make([]FileStat, 0, n)
	var st unix.Stat_t
	for i := range ents {
		if ents[i].typ != typeFile {
			continue
		}
		var err error
		if r.nameBuf, err = fstatat(fd, ents[i].name, &st, r.nameBuf); err != nil {
			continue
		}
		sts = append(sts, FileStat{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: st.Size, Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano(),
			Regular: st.Mode&unix.S_IFMT == unix.S_IFREG})
		ents[i].st = &sts[len(sts)-1]
	}
}

// readAll appends every entry of the open directory fd but "." and ".."
// to ents and returns it. All names of one call share one string.
func (r *dirReader) readAll(fd int, ents []dirent) ([]dirent, error) {
	r.names = r.names[:0]
	r.offs = r.offs[:0]
	first := len(ents)
	var err error
	for {
		var n int
		n, err = syscall.Getdents(fd, r.buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			break
		}
		ents = r.parse(r.buf[:n], ents)
	}
	all := string(r.names)
	for i := first; i < len(ents); i++ {
		k := i - first
		ents[i].name = all[r.offs[k]:r.offs[k+1]]
	}
	return ents, err
}

// linuxDirent64 is the fixed part of struct linux_dirent64.
type linuxDirent64 struct {
	Ino    uint64
	Off    int64
	Reclen uint16
	Type   uint8
}

// nameOffset is the offset of d_name in struct linux_dirent64.
const nameOffset = int(unsafe.Offsetof(linuxDirent64{}.Type)) + 1

// parse decodes a getdents64 buffer, appending names to r.names and their
// bounds to r.offs.
func (r *dirReader) parse(buf []byte, ents []dirent) []dirent {
	if len(r.offs) == 0 {
		r.offs = append(r.offs, 0)
	}
	for len(buf) >= nameOffset {
		d := (*linuxDirent64)(unsafe.Pointer(&buf[0]))
		rl := int(d.Reclen)
		if rl < nameOffset || rl > len(buf) {
			break
		}
		name := buf[nameOffset:rl]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		buf = buf[rl:]
		if len(name) == 0 || (name[0] == '.' && (len(name) == 1 || (len(name) == 2 && name[1] == '.'))) {
			continue
		}
		r.names = append(r.names, name...)
		r.offs = append(r.offs, len(r.names))
		ents = append(ents, dirent{typ: dtToType(d.Type), ino: d.Ino})
	}
	return ents
}

// dtToType maps a d_type value to the walker's entry type.
func dtToType(t uint8) entType {
	switch t {
	case syscall.DT_REG:
		return typeFile
	case syscall.DT_DIR:
		return typeDir
	case syscall.DT_LNK:
		return typeSymlink
	case syscall.DT_UNKNOWN:
		return typeUnknown
	}
	return typeOther
}

// birthTime returns the creation time of path (following symlinks) from
// statx, as Rust's Metadata::created does on Linux.
func birthTime(path string) (int64, bool) {
	var stx unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, path, 0, unix.STATX_BTIME, &stx); err != nil {
		return 0, false
	}
	if stx.Mask&unix.STATX_BTIME == 0 {
		return 0, false
	}
	return stx.Btime.Sec*1e9 + int64(stx.Btime.Nsec), true
}

func statAtime(st *syscall.Stat_t) syscall.Timespec { return st.Atim }
func statMtime(st *syscall.Stat_t) syscall.Timespec { return st.Mtim }
