package input

import (
	"io"

	"golang.org/x/text/transform"
)

// chunkReader transcodes a stream in the steps rg's searcher sees it:
// encoding_rs_io's DecodeReaderBytes over a buffer of decodeBufSize bytes.
// The source is read into that buffer once at a time, and each Read turns
// what the buffer holds into p, reading the source again only once the
// buffer is used up. So every Read returns the text of one source read
// (the byte-order-mark peek first, then decodeBufSize bytes at a time),
// which decides where rg's line buffer finds a NUL: binary detection is
// done per Read (issue 23, item 2).
//
// The transformers leave an unfinished sequence in src (ErrShortSrc);
// encoding_rs keeps it in its state and reads a whole buffer next. So
// here such a tail is carried in front of the buffer and the next read
// still asks for decodeBufSize bytes.
type chunkReader struct {
	src io.Reader
	t   transform.Transformer
	buf [decodeBufSize + decodeCarry]byte
	pos int // start of the bytes not yet transcoded
	end int // end of the bytes read
	eof bool
	// tiny holds transcoded bytes that did not fit a Read of fewer than
	// tinyLen bytes (DecodeReaderBytes' TinyTranscoder).
	tiny    [tinyLen]byte
	tinyPos int
	tinyEnd int
	done    bool
}

// newChunkReader transcodes src with t.
func newChunkReader(src io.Reader, t transform.Transformer) *chunkReader {
	return &chunkReader{src: src, t: t}
}

// Read implements io.Reader.
func (c *chunkReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if c.tinyPos < c.tinyEnd {
		n := copy(p, c.tiny[c.tinyPos:c.tinyEnd])
		c.tinyPos += n
		return n, nil
	}
	if c.done {
		return 0, io.EOF
	}
	if c.pos >= c.end && !c.eof {
		if err := c.fill(); err != nil {
			return 0, err
		}
	}
	dst := p
	if len(p) < tinyLen {
		dst = c.tiny[:]
	}
	for {
		nDst, nSrc, err := c.t.Transform(dst, c.buf[c.pos:c.end], c.eof)
		c.pos += nSrc
		if err != nil && err != transform.ErrShortSrc && err != transform.ErrShortDst {
			return 0, err
		}
		if nDst > 0 {
			if len(p) < tinyLen {
				c.tinyPos, c.tinyEnd = 0, nDst
				n := copy(p, c.tiny[:nDst])
				c.tinyPos = n
				return n, nil
			}
			return nDst, nil
		}
		if c.eof {
			c.done = true
			return 0, io.EOF
		}
		if err := c.fill(); err != nil {
			return 0, err
		}
	}
}

// fill moves the untranscoded tail to the front and reads the source once
// into the decodeBufSize bytes after it.
func (c *chunkReader) fill() error {
	carry := copy(c.buf[:], c.buf[c.pos:c.end])
	c.pos, c.end = 0, carry
	limit := min(carry+decodeBufSize, len(c.buf))
	for {
		n, err := c.src.Read(c.buf[carry:limit])
		c.end += n
		if err == io.EOF {
			c.eof = true
			return nil
		}
		if err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
	}
}
