package input

import (
	"unicode/utf8"

	"golang.org/x/text/transform"
)

// replacement is U+FFFD in UTF-8.
const replacement = "\uFFFD"

// utf16Decoder transcodes UTF-16 to UTF-8 with encoding_rs's error
// handling: an unpaired surrogate becomes one U+FFFD, and a stream that
// ends inside a code unit or after a lead surrogate gets one U+FFFD for
// the whole unfinished tail. It keeps no state between calls: an
// unfinished pair is left in src (transform.ErrShortSrc) until more input
// or EOF arrives.
type utf16Decoder struct {
	bigEndian bool
}

// Reset implements transform.Transformer.
func (utf16Decoder) Reset() {}

// unit reads the code unit at the start of b.
func (d utf16Decoder) unit(b []byte) rune {
	if d.bigEndian {
		return rune(b[0])<<8 | rune(b[1])
	}
	return rune(b[1])<<8 | rune(b[0])
}

// Transform implements transform.Transformer.
func (d utf16Decoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for nSrc+1 < len(src) {
		u := d.unit(src[nSrc:])
		r, size := u, 2
		switch {
		case u < 0x80:
			if nDst >= len(dst) {
				return nDst, nSrc, transform.ErrShortDst
			}
			dst[nDst] = byte(u)
			nDst++
			nSrc += 2
			continue
		case 0xD800 <= u && u < 0xDC00: // lead surrogate
			if nSrc+4 > len(src) {
				if !atEOF {
					return nDst, nSrc, transform.ErrShortSrc
				}
				// The stream ends after the lead (and maybe one more
				// byte): a single U+FFFD, as encoding_rs emits.
				r, size = utf8.RuneError, len(src)-nSrc
			} else if t := d.unit(src[nSrc+2:]); 0xDC00 <= t && t < 0xE000 {
				r, size = 0x10000+(u-0xD800)<<10+(t-0xDC00), 4
			} else {
				r = utf8.RuneError // the next unit is decoded on its own
			}
		case 0xDC00 <= u && u < 0xE000: // trail surrogate without a lead
			r = utf8.RuneError
		}
		if nDst+utf8.RuneLen(r) > len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += utf8.EncodeRune(dst[nDst:], r)
		nSrc += size
	}
	if nSrc < len(src) { // one byte of an unfinished code unit
		if !atEOF {
			return nDst, nSrc, transform.ErrShortSrc
		}
		if nDst+len(replacement) > len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += copy(dst[nDst:], replacement)
		nSrc++
	}
	return nDst, nSrc, nil
}

// utf8Decoder is the Encoding Standard's UTF-8 decoder (encoding_rs's, used
// by rg for -E utf-8): valid UTF-8 passes unchanged and each maximal
// subpart of an invalid sequence becomes one U+FFFD.
type utf8Decoder struct{}

// Reset implements transform.Transformer.
func (utf8Decoder) Reset() {}

// Transform implements transform.Transformer.
func (utf8Decoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for nSrc < len(src) {
		c := src[nSrc]
		if c < utf8.RuneSelf {
			if nDst >= len(dst) {
				return nDst, nSrc, transform.ErrShortDst
			}
			dst[nDst] = c
			nDst++
			nSrc++
			continue
		}
		r, size := utf8.DecodeRune(src[nSrc:])
		if r != utf8.RuneError || size > 1 { // valid (U+FFFD itself included)
			if nDst+size > len(dst) {
				return nDst, nSrc, transform.ErrShortDst
			}
			nDst += copy(dst[nDst:], src[nSrc:nSrc+size])
			nSrc += size
			continue
		}
		k := validPrefix(src[nSrc:])
		if k > 0 && nSrc+k == len(src) && !atEOF {
			return nDst, nSrc, transform.ErrShortSrc // may complete later
		}
		if k == 0 {
			k = 1
		}
		if nDst+len(replacement) > len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += copy(dst[nDst:], replacement)
		nSrc += k
	}
	return nDst, nSrc, nil
}

// validPrefix returns how many bytes at the start of b form the beginning
// of a well-formed UTF-8 sequence that b does not complete: 0 when b[0]
// cannot start one, otherwise 1 to 3.
func validPrefix(b []byte) int {
	lo, hi, need := byte(0x80), byte(0xBF), 0
	switch c := b[0]; {
	case 0xC2 <= c && c <= 0xDF:
		need = 1
	case c == 0xE0:
		lo, need = 0xA0, 2
	case c == 0xED:
		hi, need = 0x9F, 2
	case 0xE1 <= c && c <= 0xEF:
		need = 2
	case c == 0xF0:
		lo, need = 0x90, 3
	case c == 0xF4:
		hi, need = 0x8F, 3
	case 0xF1 <= c && c <= 0xF3:
		need = 3
	default:
		return 0
	}
	i := 1
	for ; i <= need && i < len(b); i++ {
		if b[i] < lo || b[i] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return i
}
