//go:build !linux && !darwin

package agent

import "os"

// linkInfo: no portable link count; hard links are not checked.
func linkInfo(os.FileInfo) (dev, ino, links uint64, ok bool) { return 0, 0, 0, false }
