package testref

import "syscall"

// noATime keeps Tree from touching access times (tests sort by them).
const noATime = syscall.O_NOATIME
