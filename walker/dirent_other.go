//go:build darwin || freebsd

package walker

import (
	"os"
	"syscall"
)

// dirReader lists directories with (*os.File).ReadDir, which keeps the
// order the operating system returns (os.ReadDir would sort).
type dirReader struct{}

func newDirReader() *dirReader { return &dirReader{} }

// list reads the directory path: its entries in the operating system's
// order and, when wantID is set, its own device and inode (no entry gets
// a stat result here: Options.StatFiles has no effect).
func (r *dirReader) list(path string, wantID, _ bool, ents []dirent) ([]dirent, FileID, error) {
	f, err := os.Open(path)
	if err != nil {
		return ents, FileID{}, err
	}
	defer f.Close()
	var id FileID
	if wantID {
		fi, err := f.Stat()
		if err != nil {
			return ents, FileID{}, err
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			id = FileID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}
		}
	}
	des, err := f.ReadDir(-1)
	for _, de := range des {
		ents = append(ents, dirent{name: de.Name(), typ: modeToType(de.Type())})
	}
	return ents, id, err
}

// birthTime is unavailable here: --sort created then treats every file
// as having no creation time.
func birthTime(path string) (int64, bool) { return 0, false }

func statAtime(st *syscall.Stat_t) syscall.Timespec { return st.Atimespec }
func statMtime(st *syscall.Stat_t) syscall.Timespec { return st.Mtimespec }
