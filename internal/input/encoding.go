package input

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/transform"
)

// UnknownEncodingError is rg's error for an -E/--encoding label that is not
// a WHATWG encoding label (the "replacement" labels included).
type UnknownEncodingError struct {
	// Label is the label as the user gave it.
	Label string
}

// Error returns rg's text, e.g. "grep config error: unknown encoding: foo".
func (e *UnknownEncodingError) Error() string {
	return "grep config error: unknown encoding: " + lossyUTF8(e.Label)
}

// ValidateEncoding reports rg's error for a label given to -E/--encoding:
// "auto", "none" and every WHATWG label except the "replacement" ones are
// accepted (trimmed of ASCII whitespace, ASCII case-insensitive, as
// encoding_rs matches them). The empty label is an error, as an empty -E value is to rg;
// Options.Encoding == "" means the flag was not given and is not checked here.
func ValidateEncoding(label string) error {
	if label == "" {
		return &UnknownEncodingError{Label: label}
	}
	_, err := resolveEncoding(label)
	return err
}

// codecKind says how bytes are decoded once BOM sniffing is done.
type codecKind int

const (
	codecRaw        codecKind = iota // bytes pass through untouched
	codecUTF8                        // WHATWG UTF-8 decoding: invalid bytes become U+FFFD
	codecUTF16LE                     // UTF-16LE to UTF-8
	codecUTF16BE                     // UTF-16BE to UTF-8
	codecSingleByte                  // a single-byte table (Encoding Standard index)
	codecLegacy                      // a golang.org/x/text decoder
)

// decoding is a resolved Options.Encoding.
type decoding struct {
	sniff  bool              // sniff (and strip) a byte-order mark
	kind   codecKind         // the codec used when no UTF-16 BOM overrides it
	legacy encoding.Encoding // the decoder for codecLegacy
	single *[256]rune        // the table for codecSingleByte
	// dropLead: a lead byte left alone at the end of the stream vanishes
	// (rg 13 does so for EUC-KR and Big5) instead of becoming U+FFFD.
	dropLead bool
}

// resolveEncoding turns an Options.Encoding value into a decoding.
func resolveEncoding(label string) (decoding, error) {
	switch label {
	case "", "auto":
		return decoding{sniff: true, kind: codecRaw}, nil
	case "none":
		return decoding{sniff: false, kind: codecRaw}, nil
	}
	name, enc, ok := lookupLabel(label)
	if !ok {
		return decoding{}, &UnknownEncodingError{Label: label}
	}
	d := decoding{sniff: true}
	switch name {
	case "utf-8":
		d.kind = codecUTF8
	case "utf-16le":
		d.kind = codecUTF16LE
	case "utf-16be":
		d.kind = codecUTF16BE
	case "gbk":
		// The Encoding Standard decodes GBK with the gb18030 decoder
		// (four-byte sequences and 0x80 included); encoding_rs does so.
		d.kind, d.legacy = codecLegacy, simplifiedchinese.GB18030
	default:
		d.kind, d.legacy = codecLegacy, enc
		d.dropLead = name == "euc-kr" || name == "big5"
		if name == "iso-8859-8-i" {
			// Logical-order Hebrew decodes exactly as ISO-8859-8;
			// x/text wraps it in a type of its own.
			enc = charmap.ISO8859_8
		}
		if cm, ok := enc.(*charmap.Charmap); ok {
			d.kind, d.single = codecSingleByte, singleByteTable(name, cm)
		}
	}
	return d, nil
}

// lookupLabel finds a WHATWG label the way encoding_rs's
// for_label_no_replacement does: leading and trailing ASCII whitespace
// (tab, LF, FF, CR, space) is ignored and ASCII letters match in any case.
// It returns the encoding's canonical name.
func lookupLabel(label string) (string, encoding.Encoding, bool) {
	label = strings.Trim(label, "\t\n\f\r ")
	if label == "" {
		return "", nil, false
	}
	b := []byte(label)
	for i, c := range b {
		switch {
		case 'A' <= c && c <= 'Z':
			b[i] = c + ('a' - 'A')
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9',
			c == '-', c == '_', c == '.', c == ':':
		default:
			// No label holds anything else; refusing here also keeps
			// htmlindex's Unicode-aware folding from accepting more.
			return "", nil, false
		}
	}
	enc, err := htmlindex.Get(string(b))
	if err != nil {
		return "", nil, false
	}
	name, err := htmlindex.Name(enc)
	if err != nil || name == "replacement" {
		return "", nil, false
	}
	return name, enc, true
}

// Wrap applies decoding (and nothing else) to an already-open reader, e.g.
// stdin: the byte-order mark is sniffed and stripped, UTF-16 is transcoded
// to UTF-8 and an explicit -E label is decoded, exactly as Open does after
// decompression. With Encoding "none" r itself is returned. An invalid
// Encoding makes every Read fail with the error ValidateEncoding reports;
// callers validate the flag first.
func Wrap(r io.Reader, opts Options) io.Reader {
	d, err := resolveEncoding(opts.Encoding)
	if err != nil {
		return &errReader{err: err}
	}
	if !d.sniff {
		return r
	}
	return &decodeReader{src: r, dec: d}
}

// errReader fails every Read with err.
type errReader struct{ err error }

func (e *errReader) Read([]byte) (int, error) { return 0, e.err }

// bomKind classifies the start of a stream.
type bomKind int

const (
	bomNone bomKind = iota
	bomUTF8
	bomUTF16LE
	bomUTF16BE
)

// sniffBOM reports the byte-order mark at the start of head and its length.
// head must hold the first HeadLen bytes of the stream, or all of it when
// shorter. A two-byte UTF-16 mark is recognised in a two-byte stream; a
// UTF-8 mark needs all three bytes.
func sniffBOM(head []byte) (bomKind, int) {
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		return bomUTF8, 3
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		return bomUTF16LE, 2
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		return bomUTF16BE, 2
	}
	return bomNone, 0
}

// decodeReader sniffs a byte-order mark on its first Read and then either
// passes the rest of the stream through or transcodes it.
//
// As in rg 13 (encoding_rs_io with BOM sniffing, BOM stripping and
// BOM override): a UTF-16 BOM selects UTF-16 whatever -E says; a UTF-8 BOM
// is only stripped and leaves the -E codec in place; without a BOM the -E
// codec applies, or nothing at all when -E was not given.
type decodeReader struct {
	src  io.Reader
	dec  decoding
	next io.Reader // set once sniffing is done
	buf  [HeadLen]byte
}

// Read implements io.Reader.
func (d *decodeReader) Read(p []byte) (int, error) {
	if d.next != nil {
		return d.next.Read(p)
	}
	if len(p) == 0 {
		return 0, nil
	}
	// Sniff into p itself when it is large enough, so that a stream
	// without a BOM costs no copy. Exactly HeadLen bytes, as rg's BOM
	// peek reads: its first read returns them alone, and a transcoder's
	// source reads start after them (chunkReader).
	direct := len(p) >= HeadLen
	head := d.buf[:]
	if direct {
		head = p[:HeadLen]
	}
	n, err := readAtLeast(d.src, head, HeadLen)
	bom, skip := sniffBOM(head[:n])
	kind := d.dec.kind
	switch bom {
	case bomUTF16LE:
		kind = codecUTF16LE
	case bomUTF16BE:
		kind = codecUTF16BE
	}
	rest := head[skip:n]
	if kind == codecRaw && direct {
		m := copy(p, rest) // drops a UTF-8 BOM in place
		d.next = &prefixReader{err: err, r: d.src}
		if err == nil {
			d.next = d.src
		}
		if m == 0 {
			return d.next.Read(p)
		}
		return m, nil
	}
	in := &prefixReader{buf: append([]byte(nil), rest...), err: err, r: d.src}
	if kind == codecRaw {
		d.next = in
	} else {
		d.next = newChunkReader(in, newTransformer(kind, d.dec))
	}
	return d.next.Read(p)
}

// newTransformer returns the decoder for kind.
func newTransformer(kind codecKind, d decoding) transform.Transformer {
	switch kind {
	case codecUTF8:
		return utf8Decoder{}
	case codecUTF16LE:
		return utf16Decoder{bigEndian: false}
	case codecUTF16BE:
		return utf16Decoder{bigEndian: true}
	case codecSingleByte:
		return singleByteDecoder{table: d.single}
	case codecLegacy:
		if d.dropLead {
			return dropFinalLead{inner: d.legacy.NewDecoder()}
		}
		return d.legacy.NewDecoder()
	}
	return transform.Nop
}

// readAtLeast reads into buf until it holds min bytes or the reader fails.
// Unlike io.ReadAtLeast it returns the reader's error (io.EOF included)
// even when data came with it, so that nothing is lost.
func readAtLeast(r io.Reader, buf []byte, min int) (int, error) {
	n := 0
	for n < min {
		m, err := r.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
		if m == 0 && n < min {
			// A reader that returns (0, nil) repeatedly: try again,
			// as io.ReadAtLeast does, but not forever.
			m, err = r.Read(buf[n:])
			n += m
			if err != nil {
				return n, err
			}
			if m == 0 {
				return n, io.ErrNoProgress
			}
		}
	}
	return n, nil
}

// prefixReader returns buf, then err (when not nil), then reads from r.
type prefixReader struct {
	buf []byte
	err error
	r   io.Reader
}

// Read implements io.Reader.
func (p *prefixReader) Read(b []byte) (int, error) {
	if len(p.buf) > 0 {
		n := copy(b, p.buf)
		p.buf = p.buf[n:]
		return n, nil
	}
	if p.err != nil {
		err := p.err
		if err != io.EOF {
			// Report a failure once, then read on: the source may
			// fail again or recover, as it would have anyway.
			p.err = nil
		}
		return 0, err
	}
	return p.r.Read(b)
}

// lossyUTF8 replaces invalid UTF-8 in s with U+FFFD the way Rust's
// String::from_utf8_lossy does (one U+FFFD per maximal invalid subpart).
func lossyUTF8(s string) string {
	out, _, err := transform.String(utf8Decoder{}, s)
	if err != nil {
		return s
	}
	return out
}

// singleByteTables caches the decoding tables by canonical name.
var singleByteTables sync.Map // string -> *[256]rune

// singleByteTable returns the Encoding Standard's decoding table for a
// single-byte encoding. golang.org/x/text's charmaps leave the bytes
// 0x80-0x9F that their source tables do not define as U+FFFD, where the
// Encoding Standard's indexes (and so encoding_rs) map them to the C1
// control of the same value; everything else is x/text's mapping.
func singleByteTable(name string, cm *charmap.Charmap) *[256]rune {
	if t, ok := singleByteTables.Load(name); ok {
		return t.(*[256]rune)
	}
	t := new([256]rune)
	for b := 0; b < 256; b++ {
		r := cm.DecodeByte(byte(b))
		if r == utf8.RuneError && 0x80 <= b && b <= 0x9F {
			r = rune(b)
		}
		t[b] = r
	}
	actual, _ := singleByteTables.LoadOrStore(name, t)
	return actual.(*[256]rune)
}

// singleByteDecoder decodes with a 256-entry table.
type singleByteDecoder struct{ table *[256]rune }

// Reset implements transform.Transformer.
func (singleByteDecoder) Reset() {}

// Transform implements transform.Transformer.
func (s singleByteDecoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for ; nSrc < len(src); nSrc++ {
		c := src[nSrc]
		if c < utf8.RuneSelf {
			if nDst >= len(dst) {
				return nDst, nSrc, transform.ErrShortDst
			}
			dst[nDst] = c
			nDst++
			continue
		}
		r := s.table[c]
		if nDst+utf8.RuneLen(r) > len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += utf8.EncodeRune(dst[nDst:], r)
	}
	return nDst, nSrc, nil
}

// dropFinalLead wraps a stateless x/text decoder so that a single
// non-ASCII byte left undecoded at the end of the stream is dropped.
type dropFinalLead struct{ inner transform.Transformer }

// Reset implements transform.Transformer.
func (d dropFinalLead) Reset() { d.inner.Reset() }

// Transform implements transform.Transformer.
func (d dropFinalLead) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	nDst, nSrc, err = d.inner.Transform(dst, src, false)
	if err != transform.ErrShortSrc || !atEOF {
		return nDst, nSrc, err
	}
	if len(src)-nSrc == 1 && src[nSrc] >= utf8.RuneSelf {
		return nDst, len(src), nil
	}
	n, m, err := d.inner.Transform(dst[nDst:], src[nSrc:], true)
	return nDst + n, nSrc + m, err
}
