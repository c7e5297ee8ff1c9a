package revisions

import "io/fs"

// File is what a Tracker asks of the open file it tracks: the path it was
// opened by (checked again at Finish) and its fstat. *os.File is one.
type File interface {
	Name() string
	Stat() (fs.FileInfo, error)
}
