package revisions

import (
	"io"
	"os"
)

// Tap is the pipeline's view of one file's Tracker (its Tap: the raw
// bytes pass through Reader, or are given to Write) that finishes the
// revision as soon as the file has been read to its end, while it is
// still open, and that may keep the raw bytes read. Every sink that
// records revisions (the agent's searches and analyses, structural
// search) uses it.
type Tap struct {
	tr   *Tracker
	rev  Revision
	done bool
	// capture: up to limit bytes are kept in buf; over is set (and buf
	// dropped) past it.
	limit int64
	buf   []byte
	over  bool
}

// NewTap tracks f. With capture > 0 it also keeps the bytes read when f
// has at most capture bytes when opened (a larger file, or one that grows
// while it is read, is not kept: Whole reports false); buf is reused for
// them.
func NewTap(f *os.File, capture int64, buf []byte) (*Tap, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return NewTapStat(f, fi, capture, buf), nil
}

// NewTapStat is NewTap for a file whose fstat at open the caller holds
// (fi, from the same descriptor): no second fstat.
func NewTapStat(f File, fi os.FileInfo, capture int64, buf []byte) *Tap {
	tr := NewTrackerStat(f, fi)
	t := &Tap{tr: tr}
	if size := tr.Identity().Size; capture > 0 && size <= capture {
		t.limit = max(size, 0)
		t.buf = buf[:0]
		if t.buf == nil || int64(cap(t.buf)) < t.limit {
			t.buf = make([]byte, 0, t.limit)
		}
	} else if capture > 0 {
		t.over = true
	}
	return t
}

// Identity is the file's identity when it was opened.
func (t *Tap) Identity() Identity { return t.tr.Identity() }

// BytesRead is how many bytes have passed.
func (t *Tap) BytesRead() int64 { return t.tr.BytesRead() }

// Reader implements the pipeline's Tap: r's bytes are tracked (and kept).
func (t *Tap) Reader(r io.Reader) io.Reader { return &tapReader{t: t, r: t.tr.Reader(r)} }

// Write implements the pipeline's Tap: the whole mapped file at once.
func (t *Tap) Write(p []byte) (int, error) {
	t.keep(p)
	n, err := t.tr.Write(p)
	if t.tr.BytesRead() >= t.tr.Identity().Size {
		t.Finish()
	}
	return n, err
}

// Finish returns the revision read (once finished, the same one): Verified
// only when the file was read to its end unchanged.
func (t *Tap) Finish() Revision {
	if !t.done {
		t.rev, t.done = t.tr.Finish(), true
	}
	return t.rev
}

// Bytes returns the bytes kept (nil without capture, or past the limit).
func (t *Tap) Bytes() []byte { return t.buf }

// Whole reports whether the bytes kept are the whole file as opened.
func (t *Tap) Whole() bool {
	return !t.over && t.buf != nil && int64(len(t.buf)) == t.tr.Identity().Size
}

func (t *Tap) keep(p []byte) {
	if t.buf == nil || t.over {
		return
	}
	if int64(len(t.buf)+len(p)) > t.limit {
		t.over, t.buf = true, t.buf[:0]
		return
	}
	t.buf = append(t.buf, p...)
}

type tapReader struct {
	t *Tap
	r io.Reader
}

func (r *tapReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if n > 0 {
		r.t.keep(p[:n])
	}
	if err == io.EOF {
		r.t.Finish()
	}
	return n, err
}
