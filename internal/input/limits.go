package input

// Every size, width and limit the package uses, in one place.
const (
	// HeadLen is the number of leading bytes that byte-order-mark sniffing
	// examines (encoding_rs_io peeks at three bytes). Raw needs at least
	// this many bytes of a file (or the whole file when it is shorter).
	HeadLen = 3

	// decodeBufSize is the source buffer of a transcoding reader: rg's
	// searcher gives encoding_rs_io's DecodeReaderBytes 8 KiB, and each
	// read of the searcher's line buffer gets the text of one such fill.
	decodeBufSize = 8 << 10
	// decodeCarry is room in front of that buffer for an unfinished
	// sequence carried over from the previous fill.
	decodeCarry = 16
	// tinyLen is the smallest read transcoded in place; a shorter one is
	// served from a transcoded buffer of this size.
	tinyLen = 4

	// errorRuleWidth is the width of the dashed rules rg draws around a
	// failing decompressor's stderr.
	errorRuleWidth = 79

	// compressedBufSize is the read buffer placed in front of a
	// decompressor.
	compressedBufSize = 64 << 10

	// maxLZMADict bounds the dictionary a .lzma header may ask for, so that
	// a forged 13-byte header cannot make us reserve gigabytes. xz's
	// presets never exceed 64 MiB.
	maxLZMADict = 1 << 30

	// maxLZMAKnownSize is the largest uncompressed size a .lzma header may
	// state before xz calls the file "not recognized" (2^38 bytes).
	maxLZMAKnownSize = 1 << 38

	// lzmaMaxProps is the largest valid LZMA properties byte
	// ((4*5+4)*9+8); lzmaMaxLcLp bounds lc+lp as liblzma does.
	lzmaMaxProps = 224
	lzmaMaxLcLp  = 4

	// lzwInitBits and lzwMaxBits are the code widths of Unix compress(1):
	// codes start 9 bits wide and gzip accepts at most 16.
	lzwInitBits = 9
	lzwMaxBits  = 16
	// lzwGroup is the number of codes compress(1) writes per group; the
	// input is realigned to a group boundary when the code width changes.
	lzwGroup = 8
	// lzwFirst is the first free code in block mode (256 is CLEAR).
	lzwFirst = 257
	lzwClear = 256
)
