package input

import (
	"bufio"
	"compress/bzip2"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"
)

// format is one of the decompressors rg 13 associates with file names.
type format struct {
	// name is what CompressionFormat reports.
	name string
	// tool is the program rg 13 runs for it; its error messages are the
	// ones imitated here.
	tool string
	// open starts decoding br. Errors of the returned reader are already
	// in rg's wording (*Error) or io.EOF; release, when not nil, frees
	// the decoder.
	open func(br *bufio.Reader, path string) (r io.Reader, release func())
}

var (
	// gzip -d -c reads gzip and compress(1) data alike; rg runs it for
	// .gz/.tgz, and for .Z it runs uncompress, which on Debian is gzip's
	// script around `gzip -d`.
	formatGzip     = &format{name: "gzip", tool: "gzip", open: openGzipFamily}
	formatCompress = &format{name: "compress", tool: "uncompress", open: openGzipFamily}
	formatBzip2    = &format{name: "bzip2", tool: "bzip2", open: openBzip2}
	// xz -d -c accepts .xz streams and, like liblzma's auto decoder,
	// .lzma files; xz --format=lzma only the latter.
	formatXz     = &format{name: "xz", tool: "xz", open: openXz}
	formatLzma   = &format{name: "lzma", tool: "xz", open: openLzma}
	formatLz4    = &format{name: "lz4", tool: "lz4", open: openLz4}
	formatBrotli = &format{name: "brotli", tool: "brotli", open: openBrotli}
	formatZstd   = &format{name: "zstd", tool: "zstd", open: openZstd}
)

// extensions are rg 13's default decompression globs (*.gz, *.tgz, ...),
// matched case-sensitively at the end of the path as globset does.
var extensions = []struct {
	ext string
	f   *format
}{
	{".gz", formatGzip},
	{".tgz", formatGzip},
	{".bz2", formatBzip2},
	{".tbz2", formatBzip2},
	{".xz", formatXz},
	{".txz", formatXz},
	{".lz4", formatLz4},
	{".lzma", formatLzma},
	{".br", formatBrotli},
	{".zst", formatZstd},
	{".zstd", formatZstd},
	{".Z", formatCompress},
}

// formatFor returns the decompressor rg 13 would use for path, or nil.
func formatFor(path string) *format {
	for _, e := range extensions {
		if strings.HasSuffix(path, e.ext) {
			return e.f
		}
	}
	return nil
}

// CompressionFormat names the decompression Open applies to path under
// -z ("gzip", "compress", "bzip2", "xz", "lzma", "lz4", "brotli" or
// "zstd"), or returns "" when rg 13 reads the file as it is.
func CompressionFormat(path string) string {
	if f := formatFor(path); f != nil {
		return f.name
	}
	return ""
}

// decompressor reads the decompressed bytes of src. Its first failure is
// kept and returned by every later Read; bytes decoded before a failure
// are delivered first, as rg prints the matches a failing decompression
// program wrote before it died.
type decompressor struct {
	f       *format
	src     io.Reader
	path    string
	r       io.Reader
	release func()
	err     error
}

// newDecompressor prepares decoding src as f. No input is read before the
// first Read.
func newDecompressor(f *format, src io.Reader, path string) *decompressor {
	return &decompressor{f: f, src: src, path: path}
}

// Read implements io.Reader.
func (d *decompressor) Read(p []byte) (n int, err error) {
	if d.err != nil {
		return 0, d.err
	}
	defer func() {
		// The decoders are third-party code fed untrusted bytes; a
		// panic in one must end this file's search, not the process.
		if v := recover(); v != nil {
			n, err = 0, decompressError(d.path, fmt.Errorf("%s decoder panic: %v", d.f.name, v),
				d.f.tool+": "+d.path+": internal error while decompressing")
			d.err = err
		}
	}()
	if d.r == nil {
		d.r, d.release = d.f.open(bufio.NewReaderSize(d.src, compressedBufSize), d.path)
	}
	n, err = d.r.Read(p)
	if err != nil {
		d.err = err
		if n > 0 {
			return n, nil
		}
	}
	return n, err
}

// close frees the decoder.
func (d *decompressor) close() {
	if d.release != nil {
		d.release()
		d.release = nil
	}
}

// failReader fails every Read with err.
type failReader struct{ err error }

func (f failReader) Read([]byte) (int, error) { return 0, f.err }

// --- gzip and compress(1) ---

// gzipMsg is gzip's wording for a failure on path.
func gzipMsg(path, msg string) string { return "gzip: " + path + ": " + msg }

// openGzipFamily dispatches on the magic number as `gzip -d` does.
func openGzipFamily(br *bufio.Reader, path string) (io.Reader, func()) {
	magic, err := br.Peek(2)
	switch {
	case len(magic) < 2:
		if err != nil && err != io.EOF {
			return failReader{decompressError(path, err, "")}, nil
		}
		return failReader{decompressError(path, io.ErrUnexpectedEOF, gzipMsg(path, "unexpected end of file"))}, nil
	case magic[0] == 0x1f && magic[1] == 0x8b:
		return &gzipReader{br: br, path: path}, nil
	case magic[0] == 0x1f && magic[1] == 0x9d:
		return newLZWReader(br, path), nil
	}
	return failReader{decompressError(path, gzip.ErrHeader, gzipMsg(path, "not in gzip format"))}, nil
}

// gzipReader decodes gzip members one after another. After the last
// member, zero bytes are ignored and anything else is the "trailing
// garbage" gzip warns about (with exit status 2, which rg reports).
type gzipReader struct {
	br   *bufio.Reader
	z    *gzip.Reader
	path string
}

// Read implements io.Reader.
func (g *gzipReader) Read(p []byte) (int, error) {
	if g.z == nil {
		z, err := gzip.NewReader(g.br)
		if err != nil {
			return 0, g.fail(err)
		}
		z.Multistream(false)
		g.z = z
	}
	for {
		n, err := g.z.Read(p)
		if err == nil {
			return n, nil
		}
		if err != io.EOF {
			return n, g.fail(err)
		}
		more, err := g.nextMember()
		if err != nil || !more {
			if err == nil {
				err = io.EOF
			}
			return n, err
		}
		if n > 0 {
			return n, nil
		}
	}
}

// nextMember looks at what follows a member: another member (true), the
// end of the file or zero padding (false), or garbage (an error).
func (g *gzipReader) nextMember() (bool, error) {
	magic, err := g.br.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		if err := g.z.Reset(g.br); err != nil {
			return false, g.fail(err)
		}
		g.z.Multistream(false)
		return true, nil
	}
	if len(magic) == 0 && err != nil && err != io.EOF {
		return false, decompressError(g.path, err, "")
	}
	for {
		c, err := g.br.ReadByte()
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, decompressError(g.path, err, "")
		}
		if c != 0 {
			return false, decompressError(g.path, errTrailingGarbage,
				gzipMsg(g.path, "decompression OK, trailing garbage ignored"))
		}
	}
}

// errTrailingGarbage is the cause recorded for data after a stream.
var errTrailingGarbage = errors.New("trailing data after the compressed stream")

// fail words a gzip library error as gzip does.
func (g *gzipReader) fail(err error) error {
	var corrupt flate.CorruptInputError
	msg := "invalid compressed data--format violated"
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		msg = "unexpected end of file"
	case errors.Is(err, gzip.ErrHeader):
		msg = "not in gzip format"
	case errors.Is(err, gzip.ErrChecksum):
		msg = "invalid compressed data--crc error"
	case errors.As(err, &corrupt):
	}
	return decompressError(g.path, err, gzipMsg(g.path, msg))
}

// --- bzip2 ---

// bzip2Advice closes bzip2's messages about damaged input.
const bzip2Advice = "\n\nIt is possible that the compressed file(s) have become corrupted.\n" +
	"You can use the -tvv option to test integrity of such files.\n\n" +
	"You can use the `bzip2recover' program to attempt to recover\n" +
	"data from undamaged sections of corrupted files."

// bzip2Reader words compress/bzip2's errors as bzip2(1) does.
type bzip2Reader struct {
	r     io.Reader
	path  string
	total int64
}

func openBzip2(br *bufio.Reader, path string) (io.Reader, func()) {
	return &bzip2Reader{r: bzip2.NewReader(br), path: path}, nil
}

// Read implements io.Reader.
func (b *bzip2Reader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.total += int64(n)
	if err == nil || err == io.EOF {
		return n, err
	}
	var e *Error
	if errors.As(err, &e) {
		return n, e
	}
	var serr bzip2.StructuralError
	isStruct := errors.As(err, &serr)
	switch {
	case isStruct && string(serr) == "bad magic value in continuation file":
		// bzip2 warns "trailing garbage after EOF ignored" and succeeds.
		return n, io.EOF
	case isStruct && (string(serr) == "bad magic value" ||
		string(serr) == "non-Huffman entropy encoding" ||
		string(serr) == "invalid compression level"):
		if b.total > 0 { // garbage after a stream that starts like one
			return n, io.EOF
		}
		return n, decompressError(b.path, err, "bzip2: "+b.path+" is not a bzip2 file.")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return n, decompressError(b.path, err, "bzip2: Compressed file ends unexpectedly;\n"+
			"\tperhaps it is corrupted?  *Possible* reason follows.\n"+
			"bzip2: Success\n"+
			"\tInput file = "+b.path+", output file = (stdout)"+bzip2Advice)
	}
	return n, decompressError(b.path, err, "bzip2: Data integrity error when decompressing.\n"+
		"\tInput file = "+b.path+", output file = (stdout)"+bzip2Advice)
}

// --- xz and lzma ---

// xzMagic starts every .xz stream.
var xzMagic = []byte{0xFD, '7', 'z', 'X', 'Z', 0x00}

// xzMsg is xz's wording for a failure on path.
func xzMsg(path, msg string) string { return "xz: " + path + ": " + msg }

// errNotRecognized is the cause recorded for input that is not the
// expected format.
var errNotRecognized = errors.New("file format not recognized")

func openXz(br *bufio.Reader, path string) (io.Reader, func()) {
	head, err := br.Peek(lzma.HeaderLen)
	if len(head) >= len(xzMagic) && string(head[:len(xzMagic)]) == string(xzMagic) {
		return &xzReader{br: br, path: path}, nil
	}
	if len(head) == lzma.HeaderLen && lzmaHeaderOK(head) {
		return openLzma(br, path)
	}
	if err != nil && err != io.EOF && len(head) < len(xzMagic) {
		return failReader{decompressError(path, err, "")}, nil
	}
	return failReader{decompressError(path, errNotRecognized, xzMsg(path, "File format not recognized"))}, nil
}

// xzReader decodes .xz streams (several, with padding) with ulikunitz/xz.
type xzReader struct {
	br   *bufio.Reader
	path string
	r    *xz.Reader
}

// Read implements io.Reader.
func (x *xzReader) Read(p []byte) (int, error) {
	if x.r == nil {
		r, err := xz.NewReader(x.br)
		if err != nil {
			return 0, x.fail(err)
		}
		x.r = r
	}
	n, err := x.r.Read(p)
	if err != nil && err != io.EOF {
		err = x.fail(err)
	}
	return n, err
}

// fail words an xz library error as xz does.
func (x *xzReader) fail(err error) error {
	msg := "Compressed data is corrupt"
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		strings.Contains(err.Error(), "unexpected EOF") {
		msg = "Unexpected end of input"
	}
	return decompressError(x.path, err, xzMsg(x.path, msg))
}

// lzmaHeaderOK applies the checks liblzma makes before it accepts a .lzma
// (LZMA_Alone) header: valid lc/lp/pb, a dictionary size of 2^n or
// 2^n+2^(n-1) (or all ones) and an unknown or plausible size.
func lzmaHeaderOK(h []byte) bool {
	props := int(h[0])
	if props > lzmaMaxProps {
		return false
	}
	lc, lp := props%9, (props/9)%5
	if lc+lp > lzmaMaxLcLp {
		return false
	}
	dict := binary.LittleEndian.Uint32(h[1:5])
	if dict != 0xFFFFFFFF {
		d := dict - 1
		d |= d >> 2
		d |= d >> 3
		d |= d >> 4
		d |= d >> 8
		d |= d >> 16
		d++
		if d != dict {
			return false
		}
	}
	size := binary.LittleEndian.Uint64(h[5:13])
	return size == 0xFFFFFFFFFFFFFFFF || size < maxLZMAKnownSize
}

func openLzma(br *bufio.Reader, path string) (io.Reader, func()) {
	head, err := br.Peek(lzma.HeaderLen)
	if len(head) < lzma.HeaderLen || !lzmaHeaderOK(head) {
		if err != nil && err != io.EOF {
			return failReader{decompressError(path, err, "")}, nil
		}
		return failReader{decompressError(path, errNotRecognized, xzMsg(path, "File format not recognized"))}, nil
	}
	return &lzmaReader{br: br, path: path}, nil
}

// lzmaReader decodes one .lzma stream; bytes after it are corrupt data to
// xz.
type lzmaReader struct {
	br   *bufio.Reader
	path string
	r    *lzma.Reader
}

// Read implements io.Reader.
func (l *lzmaReader) Read(p []byte) (int, error) {
	if l.r == nil {
		r, err := lzma.ReaderConfig{DictCap: maxLZMADict}.NewReader(l.br)
		if err != nil {
			var dictErr *lzma.ErrDictSize
			if errors.As(err, &dictErr) {
				return 0, decompressError(l.path, err, xzMsg(l.path, "Memory usage limit reached"))
			}
			return 0, l.fail(err)
		}
		l.r = r
	}
	n, err := l.r.Read(p)
	if err == io.EOF {
		if _, e := l.br.ReadByte(); e == nil {
			err = decompressError(l.path, errTrailingGarbage, xzMsg(l.path, "Compressed data is corrupt"))
		} else if e != io.EOF {
			err = decompressError(l.path, e, "")
		}
		return n, err
	}
	if err != nil {
		err = l.fail(err)
	}
	return n, err
}

// fail words an lzma library error as xz does.
func (l *lzmaReader) fail(err error) error {
	msg := "Compressed data is corrupt"
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		strings.Contains(err.Error(), "unexpected EOF") {
		msg = "Unexpected end of input"
	}
	return decompressError(l.path, err, xzMsg(l.path, msg))
}

// --- lz4 ---

// lz4Reader decodes LZ4 frames (concatenated, legacy and skippable ones
// included) with pierrec/lz4 and words its errors as lz4(1) does.
type lz4Reader struct {
	r     *lz4.Reader
	path  string
	total int64
}

func openLz4(br *bufio.Reader, path string) (io.Reader, func()) {
	r := lz4.NewReader(br)
	// One goroutine: files are decoded by many workers already.
	_ = r.Apply(lz4.ConcurrencyOption(1))
	return &lz4Reader{r: r, path: path}, nil
}

// Read implements io.Reader.
func (l *lz4Reader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	l.total += int64(n)
	if err == nil || err == io.EOF {
		return n, err
	}
	var e *Error
	if errors.As(err, &e) {
		return n, e
	}
	var msg string
	switch {
	case errors.Is(err, lz4.ErrInvalidFrame) && l.total > 0:
		// lz4 fails silently on undecodable data after a frame.
		msg = ""
	case errors.Is(err, lz4.ErrInvalidFrame):
		msg = "Error 44 : Unrecognized header : file cannot be decoded"
	case errors.Is(err, io.ErrUnexpectedEOF):
		msg = "Error 68 : Unfinished stream"
	case errors.Is(err, lz4.ErrInvalidFrameChecksum):
		msg = "Error 66 : Decompression error : ERROR_contentChecksum_invalid"
	case errors.Is(err, lz4.ErrInvalidBlockChecksum):
		msg = "Error 66 : Decompression error : ERROR_blockChecksum_invalid"
	case errors.Is(err, lz4.ErrInvalidHeaderChecksum):
		msg = "Error 44 : Decompression error : ERROR_headerChecksum_invalid"
	default:
		msg = "Error 66 : Decompression error : ERROR_decompressionFailed"
	}
	return n, decompressError(l.path, err, msg)
}

// --- brotli ---

// brotliReader words every brotli failure as brotli(1) does.
type brotliReader struct {
	r    *brotli.Reader
	path string
}

func openBrotli(br *bufio.Reader, path string) (io.Reader, func()) {
	return &brotliReader{r: brotli.NewReader(br), path: path}, nil
}

// Read implements io.Reader.
func (b *brotliReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF {
		err = decompressError(b.path, err, "corrupt input ["+b.path+"]")
	}
	return n, err
}

// --- zstd ---

// zstdReader decodes zstd frames (concatenated and skippable ones
// included) with klauspost/compress and words its errors as zstd(1) does.
type zstdReader struct {
	br   *bufio.Reader
	path string
	d    *zstd.Decoder
}

func openZstd(br *bufio.Reader, path string) (io.Reader, func()) {
	z := &zstdReader{br: br, path: path}
	return z, func() {
		if z.d != nil {
			z.d.Close()
		}
	}
}

// Read implements io.Reader.
func (z *zstdReader) Read(p []byte) (int, error) {
	if z.d == nil {
		if _, err := z.br.Peek(1); err != nil {
			if err == io.EOF {
				return 0, decompressError(z.path, io.ErrUnexpectedEOF, "zstd: "+z.path+": unexpected end of file")
			}
			return 0, decompressError(z.path, err, "")
		}
		// One goroutine: files are decoded by many workers already.
		d, err := zstd.NewReader(z.br, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return 0, z.fail(err)
		}
		z.d = d
	}
	n, err := z.d.Read(p)
	if err != nil && err != io.EOF {
		err = z.fail(err)
	}
	return n, err
}

// fail words a zstd library error as zstd does.
func (z *zstdReader) fail(err error) error {
	var msg string
	switch {
	case errors.Is(err, zstd.ErrMagicMismatch):
		msg = "zstd: " + z.path + ": unsupported format"
	case errors.Is(err, io.ErrUnexpectedEOF):
		msg = z.path + " : Read error (39) : premature end"
	case errors.Is(err, zstd.ErrCRCMismatch):
		msg = z.path + " : Decoding error (36) : Restored data doesn't match checksum"
	case errors.Is(err, zstd.ErrWindowSizeExceeded), errors.Is(err, zstd.ErrDecoderSizeExceeded):
		msg = z.path + " : Decoding error (36) : Frame requires too much memory for decoding"
	default:
		msg = z.path + " : Decoding error (36) : Data corruption detected"
	}
	return decompressError(z.path, err, msg)
}
