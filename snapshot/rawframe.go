package snapshot

import (
	"encoding/binary"

	"github.com/cespare/xxhash/v2"
)

// A snapshot whose content is small is written as a zstd frame of raw
// blocks: the same file format (one frame, one segment, its content size
// and content checksum declared) that any zstd decoder reads, without
// compressing. An agent call on a 415-file tree spent about 1 ms of its
// 30 ms building the encoder's tables and compressing 60 KB into 12 KB,
// and the encoder's buffers were 0.8 MB of its peak heap; a raw frame of
// that content takes a copy and a checksum. Larger snapshots are
// compressed (encodeSnapshot), so the state folder's byte bound
// (MaxDiskBytes) still holds hundreds of them.

// zstd frame constants (RFC 8878, section 3.1.1).
const (
	zstdMagic = 0xFD2FB528
	// frameSingle8 is a frame header descriptor: an 8-byte content size,
	// one segment (no window descriptor), a content checksum, no
	// dictionary.
	frameSingle8 = 3<<6 | 1<<5 | 1<<2
	// rawBlockMax is the largest block: Block_Maximum_Size, 128 KiB.
	rawBlockMax = 128 << 10
	// blockLast and blockRaw are a block header's last-block flag and its
	// raw block type (0) shifted into place.
	blockLast = 1
	blockRaw  = 0 << 1
)

// rawFrame returns content as one zstd frame of raw blocks with its
// content size and checksum.
func rawFrame(content []byte) []byte {
	blocks := max(1, (len(content)+rawBlockMax-1)/rawBlockMax)
	out := make([]byte, 0, 4+1+8+3*blocks+len(content)+4)
	out = binary.LittleEndian.AppendUint32(out, zstdMagic)
	out = append(out, frameSingle8)
	out = binary.LittleEndian.AppendUint64(out, uint64(len(content)))
	rest := content
	for {
		n := min(len(rest), rawBlockMax)
		h := uint32(n)<<3 | blockRaw
		if n == len(rest) {
			h |= blockLast
		}
		out = append(out, byte(h), byte(h>>8), byte(h>>16))
		out = append(out, rest[:n]...)
		if rest = rest[n:]; len(rest) == 0 {
			break
		}
	}
	return binary.LittleEndian.AppendUint32(out, uint32(xxhash.Sum64(content)))
}
