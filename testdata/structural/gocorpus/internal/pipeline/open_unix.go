//go:build unix

package pipeline

import (
	"errors"
	"syscall"
)

// openFlags are added to every OpenChecked: the last path component is
// not followed, and a FIFO or device cannot block the open.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC

// isLoop reports the error of O_NOFOLLOW on a symlink.
func isLoop(err error) bool { return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK) }

// preOpenCheck has nothing to do here: the open flags do it.
func preOpenCheck(string) error { return nil }
