package walker

import (
	"io/fs"
	"syscall"
)

// entType is the kind of a directory entry.
type entType uint8

const (
	// typeUnknown is an entry whose type the listing did not give.
	typeUnknown entType = iota
	typeFile
	typeDir
	typeSymlink
	// typeOther is a FIFO, socket or device.
	typeOther
)

// dirent is one directory entry as listed.
type dirent struct {
	name string
	typ  entType
	// ino is the inode from the listing, 0 when unknown.
	ino uint64
	// st is the entry's lstat result (Options.StatFiles), or nil.
	st *FileStat
}

// modeToType maps file mode type bits to an entType.
func modeToType(m fs.FileMode) entType {
	switch {
	case m.IsRegular():
		return typeFile
	case m.IsDir():
		return typeDir
	case m&fs.ModeSymlink != 0:
		return typeSymlink
	}
	return typeOther
}

// fileStat is what the walker needs from a stat call.
type fileStat struct {
	typ  entType
	mode fs.FileMode
	id   FileID
	size int64
	// atime and mtime are in nanoseconds since the epoch.
	atime, mtime int64
}

// statPath stats path, following symlinks when follow is set.
func statPath(path string, follow bool) (fileStat, error) {
	var st syscall.Stat_t
	var err error
	for {
		if follow {
			err = syscall.Stat(path, &st)
		} else {
			err = syscall.Lstat(path, &st)
		}
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return fileStat{}, err
	}
	mode := unixModeType(uint32(st.Mode))
	return fileStat{
		typ:   modeToType(mode),
		mode:  mode,
		id:    FileID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)},
		size:  st.Size,
		atime: timespecNanos(statAtime(&st)),
		mtime: timespecNanos(statMtime(&st)),
	}, nil
}

func timespecNanos(ts syscall.Timespec) int64 {
	return int64(ts.Sec)*1e9 + int64(ts.Nsec)
}

// unixModeType returns the fs.FileMode type bits of a st_mode value.
func unixModeType(m uint32) fs.FileMode {
	switch m & syscall.S_IFMT {
	case syscall.S_IFREG:
		return 0
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}
