//go:build !linux

package pipeline

import "io/fs"

// OpenRegular is os.Open with the file's fstat here (fdfile_linux.go
// opens a bare descriptor).
func OpenRegular(path string) (File, fs.FileInfo, error) { return openStat(path) }

// openCheckedFD has no descriptor path here: OpenCheckedFile takes
// OpenCheckedStat's.
func openCheckedFD(string, func(string) error) (File, fs.FileInfo, error, bool) {
	return nil, nil, nil, false
}
