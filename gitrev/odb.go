package gitrev

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing"
)

// ErrCorrupt is returned (wrapped) for an object the repository holds
// but that cannot be read: a delta chain that loops or runs too deep, a
// delta that does not fit its base, zlib data that inflates to more or
// less than its header says.
var ErrCorrupt = errors.New("corrupt object")

// ErrBudget is returned (wrapped) once the objects read through one Repo
// have inflated to more than Limits.MaxInflated bytes in all; every read
// after it fails too.
var ErrBudget = errors.New("inflate budget exhausted")

// odb reads objects of a repository's object folders (its own, then its
// alternates): loose objects and packs, through bounded code. Every
// object is inflated to at most the size its header declares and at most
// the caller's limit, a delta chain is followed without recursion to at
// most maxDeltaDepth links and never through one entry twice, and all the
// bytes inflated or made from deltas count against one budget. It is not
// safe for concurrent use (Repo serialises it).
type odb struct {
	dirs    []string // object folders
	packs   []*pack
	loaded  bool
	packErr error // the first pack that could not be loaded
	last    *pack // the pack of the last hit, tried first

	br   *bufio.Reader
	zr   io.ReadCloser
	left int64 // bytes that may still be inflated
	seen map[packPos]bool
}

// newODB opens the object folder objects and its alternates.
func newODB(objects string, budget int64) *odb {
	o := &odb{left: budget}
	seen := map[string]bool{}
	var add func(dir string, depth int)
	add = func(dir string, depth int) {
		dir = filepath.Clean(dir)
		if seen[dir] || len(o.dirs) >= maxAlternates+1 {
			return
		}
		seen[dir] = true
		o.dirs = append(o.dirs, dir)
		if depth >= maxAlternateDepth {
			return
		}
		b, err := readSmall(filepath.Join(dir, "info", "alternates"), maxGitFileSize)
		if err != nil {
			return
		}
		for _, line := range strings.Split(string(b), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || line[0] == '#' {
				continue
			}
			if !filepath.IsAbs(line) {
				line = filepath.Join(dir, line)
			}
			add(line, depth+1)
		}
	}
	add(objects, 0)
	return o
}

// close closes the pack files.
func (o *odb) close() {
	for _, p := range o.packs {
		p.close()
	}
}

// load reads the indexes of the packs, once.
func (o *odb) load() {
	if o.loaded {
		return
	}
	o.loaded = true
	for _, dir := range o.dirs {
		idx, _ := filepath.Glob(filepath.Join(dir, "pack", "pack-*.idx"))
		sort.Strings(idx)
		for _, x := range idx {
			if len(o.packs) >= maxPacks {
				if o.packErr == nil {
					o.packErr = fmt.Errorf("more than %d packs", maxPacks)
				}
				return
			}
			p, err := loadPack(strings.TrimSuffix(x, ".idx") + ".pack")
			if err != nil {
				if o.packErr == nil {
					o.packErr = err
				}
				continue
			}
			o.packs = append(o.packs, p)
		}
	}
}

// findPacked returns the pack and offset of object h.
func (o *odb) findPacked(h plumbing.Hash) (*pack, int64, bool, error) {
	o.load()
	try := func(p *pack) (int64, bool, error) {
		i := p.idx.find(h)
		if i < 0 {
			return 0, false, nil
		}
		off, err := p.idx.offset(i)
		return off, true, err
	}
	if o.last != nil {
		if off, ok, err := try(o.last); ok || err != nil {
			return o.last, off, ok, err
		}
	}
	for _, p := range o.packs {
		if p == o.last {
			continue
		}
		if off, ok, err := try(p); ok || err != nil {
			o.last = p
			return p, off, ok, err
		}
	}
	return nil, 0, false, nil
}

// charge takes n bytes from the budget.
func (o *odb) charge(n int64) error {
	if n > o.left {
		o.left = -1
		return ErrBudget
	}
	o.left -= n
	return nil
}

// zlib returns the shared zlib reader reset to read from r.
func (o *odb) zlib(r io.Reader) (io.Reader, error) {
	if o.br == nil {
		o.br = bufio.NewReaderSize(r, 32<<10)
	} else {
		o.br.Reset(r)
	}
	if o.zr == nil {
		zr, err := zlib.NewReader(o.br)
		if err != nil {
			return nil, err
		}
		o.zr = zr
		return zr, nil
	}
	if err := o.zr.(zlib.Resetter).Reset(o.br, nil); err != nil {
		return nil, err
	}
	return o.zr, nil
}

// inflate reads the n bytes a zlib stream must inflate to from zr, and
// checks that the stream ends there: it never inflates more than n+1.
func (o *odb) inflate(zr io.Reader, n int64) ([]byte, error) {
	if err := o.charge(n); err != nil {
		return nil, err
	}
	data := make([]byte, n)
	if _, err := io.ReadFull(zr, data); err != nil {
		return nil, fmt.Errorf("%w: it inflates to less than the %d bytes its header says (%v)", ErrCorrupt, n, err)
	}
	var one [1]byte
	if k, err := zr.Read(one[:]); k > 0 {
		return nil, fmt.Errorf("%w: it inflates to more than the %d bytes its header says", ErrCorrupt, n)
	} else if err != nil && err != io.EOF {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return data, nil
}

// read returns object h, refusing one larger than limit (and a delta
// chain any of whose objects is) before it is inflated.
func (o *odb) read(h plumbing.Hash, limit int64) (plumbing.ObjectType, []byte, error) {
	if o.left < 0 {
		return 0, nil, ErrBudget
	}
	p, off, ok, err := o.findPacked(h)
	if err != nil {
		return 0, nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if ok {
		return o.readPacked(p, off, limit)
	}
	return o.readLoose(h, limit)
}

// packPos is an entry of a pack.
type packPos struct {
	p   *pack
	off int64
}

// link is one delta of a chain.
type link struct {
	p *pack
	e entry
}

// readPacked reads the pack entry at off, following its delta chain.
func (o *odb) readPacked(p *pack, off int64, limit int64) (plumbing.ObjectType, []byte, error) {
	var chain []link
	var typ plumbing.ObjectType
	var data []byte
	clear(o.seen)
	for {
		// Every link costs the budget, so that chains of tiny deltas are
		// bounded in time as bytes are; a chain that comes back to an
		// entry it passed is refused at once.
		if err := o.charge(linkCost); err != nil {
			return 0, nil, err
		}
		pos := packPos{p, off}
		if len(chain) < 16 {
			for _, l := range chain {
				if l.p == p && l.e.off == off {
					return 0, nil, fmt.Errorf("%w: its delta chain loops back to offset %d of %s", ErrCorrupt, off, filepath.Base(p.path))
				}
			}
		} else {
			if o.seen == nil {
				o.seen = map[packPos]bool{}
			}
			if len(o.seen) == 0 {
				for _, l := range chain {
					o.seen[packPos{l.p, l.e.off}] = true
				}
			}
			if o.seen[pos] {
				return 0, nil, fmt.Errorf("%w: its delta chain loops back to offset %d of %s", ErrCorrupt, off, filepath.Base(p.path))
			}
			o.seen[pos] = true
		}
		e, err := p.header(off)
		if err != nil {
			return 0, nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		if e.typ != packOFSDelta && e.typ != packREFDelta {
			if e.size > limit {
				return 0, nil, fmt.Errorf("%w: %d bytes (at most %d are read)", ErrTooLarge, e.size, limit)
			}
			zr, err := o.zlib(p.section(e.data))
			if err == nil {
				data, err = o.inflate(zr, e.size)
			}
			if err != nil {
				return 0, nil, o.wrap(err)
			}
			typ = objectType(e.typ)
			break
		}
		if len(chain) >= maxDeltaDepth {
			return 0, nil, fmt.Errorf("%w: its delta chain is more than %d deep", ErrCorrupt, maxDeltaDepth)
		}
		chain = append(chain, link{p, e})
		if e.typ == packOFSDelta {
			off = e.baseOff
			continue
		}
		if i := p.idx.find(e.base); i >= 0 {
			if off, err = p.idx.offset(i); err != nil {
				return 0, nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
			}
			continue
		}
		q, qoff, ok, err := o.findPacked(e.base)
		if err != nil {
			return 0, nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		if ok {
			p, off = q, qoff
			continue
		}
		if typ, data, err = o.readLoose(e.base, limit); err != nil {
			return 0, nil, err
		}
		break
	}
	for i := len(chain) - 1; i >= 0; i-- {
		l := chain[i]
		if l.e.size > maxDeltaSize(limit) {
			return 0, nil, fmt.Errorf("%w: a delta of %d bytes (at most %d are read)", ErrTooLarge, l.e.size, maxDeltaSize(limit))
		}
		zr, err := o.zlib(l.p.section(l.e.data))
		var delta []byte
		if err == nil {
			delta, err = o.inflate(zr, l.e.size)
		}
		if err != nil {
			return 0, nil, o.wrap(err)
		}
		if _, dst, _, err := deltaSizes(delta); err != nil {
			return 0, nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
		} else if dst <= limit {
			if err := o.charge(dst); err != nil {
				return 0, nil, err
			}
		}
		if data, err = applyDelta(data, delta, limit); err != nil {
			if errors.Is(err, ErrTooLarge) {
				return 0, nil, err
			}
			return 0, nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
	}
	return typ, data, nil
}

// wrap marks a read error as a corrupt object unless it already says
// what it is.
func (o *odb) wrap(err error) error {
	if errors.Is(err, ErrCorrupt) || errors.Is(err, ErrBudget) || errors.Is(err, ErrTooLarge) {
		return err
	}
	return fmt.Errorf("%w: %v", ErrCorrupt, err)
}

// maxDeltaSize is the largest delta read for a result of at most limit
// bytes: all inserts, one instruction byte per 127, and the sizes.
func maxDeltaSize(limit int64) int64 { return limit + limit/127 + 64 }

// openLoose opens the loose object h of the first object folder that
// holds it, as a regular file.
func (o *odb) openLoose(h plumbing.Hash) (*os.File, error) {
	s := h.String()
	for _, dir := range o.dirs {
		f, err := openRegular(filepath.Join(dir, s[:2], s[2:]))
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	return nil, plumbing.ErrObjectNotFound
}

// looseHeader reads a loose object's header ("blob 12\x00") from zr.
func looseHeader(zr io.Reader) (plumbing.ObjectType, int64, error) {
	var hdr []byte
	var one [1]byte
	for {
		if _, err := io.ReadFull(zr, one[:]); err != nil {
			return 0, 0, fmt.Errorf("%w: bad loose object header (%v)", ErrCorrupt, err)
		}
		if one[0] == 0 {
			break
		}
		if hdr = append(hdr, one[0]); len(hdr) > maxLooseHeader {
			return 0, 0, fmt.Errorf("%w: loose object header longer than %d bytes", ErrCorrupt, maxLooseHeader)
		}
	}
	name, num, ok := bytes.Cut(hdr, []byte{' '})
	typ, err := plumbing.ParseObjectType(string(name))
	size, err2 := strconv.ParseInt(string(num), 10, 64)
	if !ok || err != nil || err2 != nil || size < 0 || len(num) == 0 || num[0] == '+' || typ == plumbing.OFSDeltaObject || typ == plumbing.REFDeltaObject {
		return 0, 0, fmt.Errorf("%w: bad loose object header %q", ErrCorrupt, hdr)
	}
	return typ, size, nil
}

// readLoose reads loose object h.
func (o *odb) readLoose(h plumbing.Hash, limit int64) (plumbing.ObjectType, []byte, error) {
	if err := o.charge(linkCost); err != nil {
		return 0, nil, err
	}
	f, err := o.openLoose(h)
	if err != nil {
		return 0, nil, err
	}
	defer f.Close()
	zr, err := o.zlib(f)
	if err != nil {
		return 0, nil, o.wrap(err)
	}
	typ, size, err := looseHeader(zr)
	if err != nil {
		return 0, nil, err
	}
	if size > limit {
		return 0, nil, fmt.Errorf("%w: %d bytes (at most %d are read)", ErrTooLarge, size, limit)
	}
	data, err := o.inflate(zr, size)
	if err != nil {
		return 0, nil, o.wrap(err)
	}
	return typ, data, nil
}

// size returns the size of object h without reading it: from its header,
// or for a delta from the sizes the delta starts with.
func (o *odb) size(h plumbing.Hash) (int64, error) {
	p, off, ok, err := o.findPacked(h)
	if err != nil {
		return 0, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if !ok {
		f, err := o.openLoose(h)
		if err != nil {
			return 0, err
		}
		defer f.Close()
		zr, err := o.zlib(f)
		if err != nil {
			return 0, o.wrap(err)
		}
		_, size, err := looseHeader(zr)
		return size, err
	}
	e, err := p.header(off)
	if err != nil {
		return 0, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if e.typ != packOFSDelta && e.typ != packREFDelta {
		return e.size, nil
	}
	zr, err := o.zlib(p.section(e.data))
	if err != nil {
		return 0, o.wrap(err)
	}
	var head [20]byte
	n, _ := io.ReadFull(zr, head[:min(int64(len(head)), e.size)])
	_, dst, _, err := deltaSizes(head[:n])
	if err != nil {
		return 0, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return dst, nil
}

// withPrefix returns the names of the objects that start with the hex
// digits prefix (at least 2), loose and packed.
func (o *odb) withPrefix(prefix string) []plumbing.Hash {
	prefix = strings.ToLower(prefix)
	seen := map[plumbing.Hash]bool{}
	var out []plumbing.Hash
	add := func(h plumbing.Hash) {
		if !seen[h] && strings.HasPrefix(h.String(), prefix) {
			seen[h] = true
			out = append(out, h)
		}
	}
	o.load()
	whole := prefixBytes(prefix)
	for _, p := range o.packs {
		p.idx.withPrefix(whole, add)
	}
	for _, dir := range o.dirs {
		ents, _ := os.ReadDir(filepath.Join(dir, prefix[:2]))
		for _, e := range ents {
			if h, ok := parseHash(prefix[:2] + e.Name()); ok {
				add(h)
			}
		}
	}
	return out
}

// openRegular opens path for reading without blocking on a FIFO, and
// only when it is a regular file.
func openRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s: not a regular file", path)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
