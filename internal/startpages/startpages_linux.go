//go:build linux

package startpages

import (
	"bytes"
	"encoding/binary"
	"os"
	"sync"
	"syscall"
)

// ELF constants of the header fields Drop reads.
const (
	elfHeaderSize = 64 // Elf64_Ehdr
	progEntrySize = 56 // Elf64_Phdr
	etExec        = 2  // e_type of a position-dependent executable
	ptLoad        = 1  // p_type of a loaded segment
	pfWrite       = 2  // p_flags bit of a writable segment
	pfExec        = 1  // p_flags bit of an executable segment
)

// Drop unmaps the resident pages of the running executable's read-only
// segments (see the package comment). It does nothing when the executable
// cannot be read, is not a 64-bit little-endian position-dependent ELF
// file (whose segments lie at the addresses the file names), or when a
// tracer is attached.
func Drop() {
	if tracedAtStart() {
		return
	}
	for _, r := range ranges() {
		// The raw call: the range is an address of this process's own
		// mapping, not a Go slice.
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, r[0], r[1]-r[0], syscall.MADV_DONTNEED)
	}
}

// ranges is readOnlyRanges, read from the executable once: Drop runs at
// each stage of start-up (package stages), at main and before a walk.
var ranges = sync.OnceValue(readOnlyRanges)

// tracedAtStart is traced, asked at the first drop only: the five drops
// of a process's start-up read /proc/self/status once, not five times. A
// debugger attached after the first drop (within the few milliseconds of
// start-up) is not seen; one that starts the process is.
var tracedAtStart = sync.OnceValue(traced)

// traced reports whether a tracer (a debugger) is attached, or whether
// that cannot be told.
func traced() bool {
	// Read into a buffer on the stack with plain system calls: Drop runs
	// up to five times per process, and os.ReadFile of a /proc file (size
	// 0) grew a 64 KiB heap buffer each time, fresh pages every one.
	fd, err := syscall.Open("/proc/self/status", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return true
	}
	var buf [statusHeadBytes]byte
	n := 0
	for n < len(buf) {
		m, err := syscall.Read(fd, buf[n:])
		if err != nil || m <= 0 {
			break
		}
		n += m
	}
	syscall.Close(fd)
	_, rest, ok := bytes.Cut(buf[:n], []byte("\nTracerPid:"))
	if !ok {
		return true
	}
	rest = bytes.TrimLeft(rest, " \t")
	return len(rest) == 0 || rest[0] != '0' || (len(rest) > 1 && rest[1] != '\n')
}

// readOnlyRanges returns the page-aligned [start, end) address ranges of
// the executable's loaded segments that are not writable, without any page
// that a writable segment shares.
func readOnlyRanges() [][2]uintptr {
	f, err := os.Open("/proc/self/exe")
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, maxHeaderBytes)
	n, _ := f.ReadAt(head, 0)
	return parseRanges(head[:n], uintptr(os.Getpagesize()), hotCodeBytes)
}

// parseRanges is readOnlyRanges over the first bytes of an ELF file,
// leaving out the first keepCode bytes of each executable segment.
func parseRanges(head []byte, page, keepCode uintptr) [][2]uintptr {
	le := binary.LittleEndian
	if len(head) < elfHeaderSize || !bytes.HasPrefix(head, []byte("\x7fELF\x02\x01")) ||
		le.Uint16(head[16:]) != etExec {
		return nil
	}
	off, size, count := le.Uint64(head[32:]), le.Uint16(head[54:]), le.Uint16(head[56:])
	if size < progEntrySize || off > uint64(len(head)) || uint64(count)*uint64(size) > uint64(len(head))-off {
		return nil
	}
	var ro, rw [][2]uintptr
	for i := range uint64(count) {
		p := head[off+i*uint64(size):]
		if le.Uint32(p) != ptLoad {
			continue
		}
		vaddr, filesz, memsz := uintptr(le.Uint64(p[16:])), uintptr(le.Uint64(p[32:])), uintptr(le.Uint64(p[40:]))
		if le.Uint32(p[4:])&pfWrite != 0 {
			rw = append(rw, [2]uintptr{vaddr &^ (page - 1), (vaddr + memsz + page - 1) &^ (page - 1)})
			continue
		}
		// Whole pages inside the segment's file bytes only.
		start, end := (vaddr+page-1)&^(page-1), (vaddr+filesz)&^(page-1)
		if le.Uint32(p[4:])&pfExec != 0 {
			start = (start + keepCode + page - 1) &^ (page - 1)
		}
		if end > start {
			ro = append(ro, [2]uintptr{start, end})
		}
	}
	var out [][2]uintptr
	for _, r := range ro {
		for _, w := range rw {
			if r[0] < w[1] && w[0] < r[1] {
				r[1] = min(r[1], w[0])
				if w[0] <= r[0] {
					r[0] = r[1]
				}
			}
		}
		if r[1] > r[0] {
			out = append(out, r)
		}
	}
	return out
}
