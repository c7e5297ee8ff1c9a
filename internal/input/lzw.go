package input

import (
	"bufio"
	"errors"
	"io"
	"strconv"
)

// lzwReader decodes the LZW format of Unix compress(1) (".Z"), with the
// behaviour of gzip's decoder, which is what `uncompress -c` runs on
// Debian:
//
//   - header 1F 9D, then a flags byte: bits 0-4 the largest code width
//     (at most 16), bit 7 "block mode" (code 256 clears the table);
//   - codes are packed least significant bit first, 9 bits wide at first,
//     one bit wider each time the table outgrows the width;
//   - compress(1) writes codes in groups of eight, so when the width
//     changes or the table is cleared the rest of the current group is
//     padding and is skipped;
//   - a final partial code is ignored, so a truncated file ends quietly.
//
// Go's compress/lzw implements the GIF/TIFF variant, which differs in all
// of these points, hence this decoder.
type lzwReader struct {
	br   *bufio.Reader
	path string
	err  error // sticky: io.EOF or an *Error

	started    bool
	maxBits    uint
	blockMode  bool
	nBits      uint
	maxCode    int // largest code of the current width
	maxMaxCode int // 1 << maxBits: no entry is added at or past it
	freeEnt    int // next table entry
	oldCode    int // previous code, -1 before the first one
	finChar    byte
	inGroup    int // codes read in the current group of lzwGroup
	clears     int // CLEAR codes seen (tests check they are exercised)

	bits  uint64 // bit accumulator, least significant bit first
	nbits uint   // valid bits in bits

	prefix []uint16 // per entry: the code of the string without its last byte
	suffix []byte   // per entry: the last byte of its string
	stack  []byte   // one string, built backwards
	out    []byte   // decoded bytes not yet returned
}

// newLZWReader returns a decoder for br, positioned at the magic number.
func newLZWReader(br *bufio.Reader, path string) *lzwReader {
	return &lzwReader{br: br, path: path}
}

// corrupt is gzip's complaint about impossible codes.
func (z *lzwReader) corrupt() error {
	return decompressError(z.path, errLZWCorrupt, gzipMsg(z.path, "corrupt input."))
}

var errLZWCorrupt = errors.New("invalid LZW code")

// header reads the three header bytes.
func (z *lzwReader) header() error {
	var h [3]byte
	if _, err := io.ReadFull(z.br, h[:]); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return decompressError(z.path, io.ErrUnexpectedEOF, gzipMsg(z.path, "unexpected end of file"))
		}
		return decompressError(z.path, err, "")
	}
	if h[0] != 0x1f || h[1] != 0x9d {
		return decompressError(z.path, errNotRecognized, gzipMsg(z.path, "not in gzip format"))
	}
	z.maxBits = uint(h[2] & 0x1f)
	z.blockMode = h[2]&0x80 != 0
	if z.maxBits > lzwMaxBits {
		return decompressError(z.path, errLZWCorrupt, gzipMsg(z.path, "compressed with "+
			strconv.Itoa(int(z.maxBits))+" bits, can only handle "+strconv.Itoa(lzwMaxBits)+" bits"))
	}
	z.maxMaxCode = 1 << z.maxBits
	z.nBits = lzwInitBits
	z.maxCode = 1<<z.nBits - 1
	z.freeEnt = 256
	if z.blockMode {
		z.freeEnt = lzwFirst
	}
	z.oldCode = -1
	z.prefix = make([]uint16, 1<<lzwMaxBits)
	z.suffix = make([]byte, 1<<lzwMaxBits)
	z.stack = make([]byte, 0, 1<<lzwMaxBits)
	return nil
}

// readCode returns the next code, or -1 at the end of the input (a final
// partial code is dropped).
func (z *lzwReader) readCode() (int, error) {
	for z.nbits < z.nBits {
		c, err := z.br.ReadByte()
		if err == io.EOF {
			return -1, nil
		}
		if err != nil {
			return -1, decompressError(z.path, err, "")
		}
		z.bits |= uint64(c) << z.nbits
		z.nbits += 8
	}
	code := int(z.bits & (1<<z.nBits - 1))
	z.bits >>= z.nBits
	z.nbits -= z.nBits
	z.inGroup = (z.inGroup + 1) % lzwGroup
	return code, nil
}

// skipGroup discards the padding codes that end the current group.
func (z *lzwReader) skipGroup() error {
	for z.inGroup != 0 {
		code, err := z.readCode()
		if err != nil {
			return err
		}
		if code < 0 {
			break
		}
	}
	z.inGroup = 0
	return nil
}

// Read implements io.Reader.
func (z *lzwReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(z.out) > 0 {
			m := copy(p[n:], z.out)
			z.out = z.out[m:]
			n += m
			continue
		}
		if z.err != nil {
			break
		}
		z.err = z.step()
	}
	if n > 0 {
		return n, nil
	}
	return 0, z.err
}

// step decodes one code into z.out, or returns why it cannot.
func (z *lzwReader) step() error {
	if !z.started {
		z.started = true
		if err := z.header(); err != nil {
			return err
		}
	}
	if z.freeEnt > z.maxCode && z.nBits < z.maxBits {
		if err := z.skipGroup(); err != nil {
			return err
		}
		z.nBits++
		z.maxCode = 1<<z.nBits - 1
		if z.nBits == z.maxBits {
			z.maxCode = z.maxMaxCode
		}
	}
	code, err := z.readCode()
	if err != nil {
		return err
	}
	if code < 0 {
		return io.EOF
	}
	if z.oldCode == -1 {
		if code >= 256 {
			return z.corrupt()
		}
		z.oldCode, z.finChar = code, byte(code)
		z.stack = append(z.stack[:0], byte(code))
		z.out = z.stack
		return nil
	}
	if code == lzwClear && z.blockMode {
		// The table restarts; the slot of CLEAR itself takes the next
		// (never used) entry, as compress(1)'s decoder does.
		z.freeEnt = lzwFirst - 1
		z.clears++
		if err := z.skipGroup(); err != nil {
			return err
		}
		z.nBits = lzwInitBits
		z.maxCode = 1<<z.nBits - 1
		return nil
	}
	inCode := code
	s := z.stack[:0]
	if code >= z.freeEnt {
		if code > z.freeEnt {
			return z.corrupt()
		}
		// The KwKwK case: the string of the previous code plus its
		// own first byte.
		s = append(s, z.finChar)
		code = z.oldCode
	}
	for code >= 256 {
		if len(s) >= cap(s) {
			return z.corrupt() // only a damaged table gets this long
		}
		s = append(s, z.suffix[code])
		code = int(z.prefix[code])
	}
	z.finChar = byte(code)
	s = append(s, z.finChar)
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
	z.stack, z.out = s, s
	if z.freeEnt < z.maxMaxCode {
		z.prefix[z.freeEnt] = uint16(z.oldCode)
		z.suffix[z.freeEnt] = z.finChar
		z.freeEnt++
	}
	z.oldCode = inCode
	return nil
}
