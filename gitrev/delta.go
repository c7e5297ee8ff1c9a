package gitrev

import (
	"errors"
	"fmt"
)

// errBadDelta is a delta whose instructions do not fit its base or its
// declared result.
var errBadDelta = errors.New("malformed delta")

// deltaSizes reads the two sizes a delta starts with: its base's and its
// result's, and returns the rest of the delta.
func deltaSizes(delta []byte) (src, dst int64, rest []byte, err error) {
	src, delta, err = deltaVarint(delta)
	if err != nil {
		return 0, 0, nil, err
	}
	dst, delta, err = deltaVarint(delta)
	if err != nil {
		return 0, 0, nil, err
	}
	return src, dst, delta, nil
}

// deltaVarint reads a little-endian base-128 size.
func deltaVarint(b []byte) (int64, []byte, error) {
	var v int64
	for i, shift := 0, uint(0); i < len(b); i, shift = i+1, shift+7 {
		if shift > 56 {
			break
		}
		v |= int64(b[i]&0x7f) << shift
		if b[i]&0x80 == 0 {
			return v, b[i+1:], nil
		}
	}
	return 0, nil, fmt.Errorf("%w: bad size", errBadDelta)
}

// applyDelta builds a delta's result from its base. The result's size,
// which the delta declares, must be at most limit; the work is linear in
// the sizes of the delta and the result.
func applyDelta(base, delta []byte, limit int64) ([]byte, error) {
	src, dst, ops, err := deltaSizes(delta)
	if err != nil {
		return nil, err
	}
	if src != int64(len(base)) {
		return nil, fmt.Errorf("%w: it is for a base of %d bytes, not %d", errBadDelta, src, len(base))
	}
	if dst > limit {
		return nil, fmt.Errorf("%w: a delta's result of %d bytes (at most %d are read)", ErrTooLarge, dst, limit)
	}
	out := make([]byte, 0, dst)
	for len(ops) > 0 {
		c := ops[0]
		ops = ops[1:]
		switch {
		case c&0x80 != 0:
			// Copy from the base: up to 4 offset and 3 size bytes, each
			// present when its bit is set.
			var off, n int64
			for i := range 7 {
				if c&(1<<i) == 0 {
					continue
				}
				if len(ops) == 0 {
					return nil, fmt.Errorf("%w: truncated copy", errBadDelta)
				}
				if i < 4 {
					off |= int64(ops[0]) << (8 * i)
				} else {
					n |= int64(ops[0]) << (8 * (i - 4))
				}
				ops = ops[1:]
			}
			if n == 0 {
				n = 0x10000
			}
			if off+n > int64(len(base)) || int64(len(out))+n > dst {
				return nil, fmt.Errorf("%w: a copy overruns", errBadDelta)
			}
			out = append(out, base[off:off+n]...)
		case c != 0:
			n := int(c)
			if n > len(ops) || int64(len(out)+n) > dst {
				return nil, fmt.Errorf("%w: an insert overruns", errBadDelta)
			}
			out = append(out, ops[:n]...)
			ops = ops[n:]
		default:
			return nil, fmt.Errorf("%w: reserved instruction 0", errBadDelta)
		}
	}
	if int64(len(out)) != dst {
		return nil, fmt.Errorf("%w: %d bytes made, %d declared", errBadDelta, len(out), dst)
	}
	return out, nil
}
