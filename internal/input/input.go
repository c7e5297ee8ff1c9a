// Package input turns a file (or stdin) into the bytes evgrep searches,
// the way ripgrep 13 does before its searcher sees them:
//
//   - with -z/--search-zip, a file whose name has a compressed extension
//     rg 13 knows (.gz .tgz .bz2 .tbz2 .xz .txz .lz4 .lzma .br .zst .zstd .Z)
//     is decompressed, in process, with Go libraries (rg runs gzip, bzip2,
//     xz, lz4, brotli, zstd or uncompress instead);
//   - then the bytes are decoded: a UTF-8 byte-order mark is stripped,
//     UTF-16 with a BOM is transcoded to UTF-8, an explicit -E/--encoding
//     label is decoded with the Encoding Standard's decoders, and
//     -E none turns all of it off.
//
// Errors carry the text rg prints (see Error and OSErrorText). The package
// neither searches nor prints.
//
// Known differences from rg 13 (Debian build, which spawns the tools):
//
//   - rg searches a compressed file's raw bytes when the tool is not
//     installed; evgrep always decompresses.
//   - How much data comes out before a decompression failure depends on
//     the decoder (xz and bzip2 check block checksums at other points than
//     the Go libraries). rg also drops the unterminated last line when the
//     tool fails; that is the search loop's business.
//   - Rare failure kinds get an approximate message (lz4 header checksum,
//     zstd window too large, one stray byte after a bzip2 stream, 1-3 zero
//     bytes after an xz stream). gzip's pack and LZH formats are not read
//     ("not in gzip format"), nor does a .zst holding gzip data decompress
//     as zstd -d would. compress -b 9 files decode (gzip cannot read them).
//     A .lzma header asking for a dictionary over 1 GiB is refused.
//   - Shift_JIS, EUC-JP, ISO-2022-JP, Big5, GBK and gb18030 are decoded by
//     golang.org/x/text: valid text decodes as rg does, but some invalid
//     sequences do not (x/text may swallow an ASCII byte after a bad lead
//     byte, lacks gb18030's private-use rows, and accepts back-to-back
//     ISO-2022-JP escapes). UTF-8, UTF-16, EUC-KR and every single-byte
//     encoding match rg byte for byte, invalid input included.
package input

import (
	"io"
	"os"
	"syscall"
)

// Options selects what Open, NewReader, Wrap and Raw do.
type Options struct {
	// SearchZip is -z/--search-zip: decompress files with a compressed
	// extension.
	SearchZip bool
	// Encoding is the -E/--encoding value: "" (flag not given) or "auto"
	// sniff byte-order marks, "none" passes raw bytes, anything else is a
	// WHATWG label (see ValidateEncoding).
	Encoding string
}

// Open opens a file for searching: it decompresses it in process when
// opts.SearchZip is set and the name has a compressed extension rg 13
// recognises, then decodes it per opts.Encoding. The reader yields UTF-8
// (or, without a BOM or label, the raw bytes). Errors, from Open and from
// reading, are *Error (rg's text for the file) or, for an invalid
// opts.Encoding, *UnknownEncodingError. A directory fails with
// "Is a directory (os error 21)". Close closes the file.
func Open(path string, opts Options) (io.ReadCloser, error) {
	if _, err := resolveEncoding(opts.Encoding); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, osError(path, err)
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		_ = f.Close()
		return nil, osError(path, syscall.EISDIR)
	}
	rc, err := NewReader(f, path, opts)
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return rc, nil
}

// NewReader is Open for a reader the caller has opened itself (for example
// to fstat it first): path names it, for the choice of decompressor and
// for error texts. Read errors of r are reported in rg's wording. Close
// releases the decompressor and closes r when r is an io.Closer.
func NewReader(r io.Reader, path string, opts Options) (io.ReadCloser, error) {
	dec, err := resolveEncoding(opts.Encoding)
	if err != nil {
		return nil, err
	}
	rc := &fileReader{closer: asCloser(r)}
	var src io.Reader = &osErrReader{r: r, path: path}
	if opts.SearchZip {
		if f := formatFor(path); f != nil {
			d := newDecompressor(f, src, path)
			rc.release = d.close
			src = d
		}
	}
	if dec.sniff {
		src = &decodeReader{src: src, dec: dec}
	}
	rc.r = src
	return rc, nil
}

// Raw reports whether Open(path, opts) would yield the file's bytes
// unchanged, so that the caller may memory-map or read the file directly.
// head must hold the file's first HeadLen bytes (all of it when shorter);
// it decides whether a byte-order mark would be stripped or transcoded.
// Raw is false for a file that would be decompressed, for any explicit
// -E label other than "none" (decoding may replace invalid bytes) and for
// an invalid label.
func Raw(path string, head []byte, opts Options) bool {
	dec, err := resolveEncoding(opts.Encoding)
	if err != nil {
		return false
	}
	if opts.SearchZip && formatFor(path) != nil {
		return false
	}
	if !dec.sniff {
		return true
	}
	if bom, _ := sniffBOM(head); bom != bomNone {
		return false
	}
	return dec.kind == codecRaw
}

// fileReader is the io.ReadCloser Open and NewReader return.
type fileReader struct {
	r       io.Reader
	release func()    // frees decompressor state, may be nil
	closer  io.Closer // the underlying file, may be nil
}

// Read implements io.Reader.
func (f *fileReader) Read(p []byte) (int, error) { return f.r.Read(p) }

// Close implements io.Closer. It is safe to call more than once.
func (f *fileReader) Close() error {
	if f.release != nil {
		f.release()
		f.release = nil
	}
	if f.closer == nil {
		return nil
	}
	c := f.closer
	f.closer = nil
	return c.Close()
}

// asCloser returns r as an io.Closer, or nil.
func asCloser(r io.Reader) io.Closer {
	c, _ := r.(io.Closer)
	return c
}

// osErrReader reports r's read errors (other than io.EOF) as *Error in
// rg's wording.
type osErrReader struct {
	r    io.Reader
	path string
}

// Read implements io.Reader.
func (o *osErrReader) Read(p []byte) (int, error) {
	n, err := o.r.Read(p)
	if err != nil && err != io.EOF {
		err = osError(o.path, err)
	}
	return n, err
}
