//go:build !linux

package testref

// noATime is not available here: Tree may update access times.
const noATime = 0
