package credpolicy

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ListDir returns at most n names of the entries of the folder at path
// (not a link to one), in the order the file system gives them: how the
// policy lists home folders, and how the agent lists the credential
// stores for the identities of their files. more is set when the folder
// holds more.
func ListDir(path string, n int) (names []string, more bool, err error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, false, err
	}
	if !fi.IsDir() {
		return nil, false, &fs.PathError{Op: "list", Path: path, Err: fmt.Errorf("not a folder")}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	names, err = f.Readdirnames(n + 1)
	if len(names) > n {
		return names[:n], true, nil
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, false, err
	}
	return names, false, nil
}
