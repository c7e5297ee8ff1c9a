package pcre2

import (
	"encoding/binary"
	"fmt"
	"sync"
	"unsafe"

	"go.elara.ws/pcre/lib"
	"modernc.org/libc"
	"modernc.org/libc/sys/types"
)

// This file binds PCRE2 as go.elara.ws/pcre/lib provides it: PCRE2 10.40's
// C source translated to Go by ccgo, so that a CGO_ENABLED=0 build keeps
// -P. The module's own Regexp type is not used: it panics on match errors
// (PCRE2's match limit), serialises every match behind one mutex and
// allocates match data per call. The translated functions are called
// directly instead, with one libc.TLS, match context and match data per
// concurrent user.
//
// Memory: the translated C code addresses memory as uintptr and does C
// pointer arithmetic on it, which Go allows only outside the Go heap (the
// race detector's checkptr refuses it on Go objects, and a goroutine stack
// may move under it). So PCRE2 never sees Go memory: patterns and subjects
// are copied into C memory from modernc's allocator (a per-state scratch
// buffer), and results are read back from C memory.

// code is a compiled pattern; it is read-only once built and safe for
// concurrent matching (PCRE2's guarantee for non-JIT code).
type code struct {
	re    uintptr // pcre2_code_8
	ncap  int     // capture groups, without group 0
	names map[string]int
	// lookBehind is the most bytes a match at p may examine before p:
	// PCRE2's longest look-behind (characters, up to 4 bytes each) plus a
	// character for \b and ^ and one of margin.
	lookBehind int
	mu         sync.Mutex
	free       []*state // states not in use
}

// state is what one goroutine needs to run a match.
type state struct {
	tls   *libc.TLS
	md    uintptr  // pcre2_match_data_8
	mctx  uintptr  // pcre2_match_context_8
	ovec  []uint64 // view of md's ovector (C memory)
	subj  uintptr  // scratch C memory holding the subject
	subjN int      // its capacity
}

// load copies b into the state's C scratch buffer and returns its address.
func (s *state) load(b []byte) uintptr {
	if s.subj == 0 || s.subjN < len(b) {
		if s.subj != 0 {
			libc.Xfree(s.tls, s.subj)
		}
		n := max(len(b), 256)
		s.subj = libc.Xmalloc(s.tls, types.Size_t(n))
		if s.subj == 0 {
			s.subjN = 0
			panic(&MatchError{msg: "failed to get memory"})
		}
		s.subjN = n
	}
	if len(b) > 0 {
		copy(libc.GoBytes(s.subj, len(b)), b)
	}
	return s.subj
}

// trim frees a scratch buffer that one large subject grew, so that a pooled
// state does not keep megabytes for the rest of the run.
func (s *state) trim() {
	if s.subjN > maxKeptSubject {
		libc.Xfree(s.tls, s.subj)
		s.subj, s.subjN = 0, 0
	}
}

// compileError is a PCRE2 compile error in rg's words.
type compileError struct {
	offset int
	msg    string
}

func (e *compileError) Error() string {
	return fmt.Sprintf("PCRE2: error compiling pattern at offset %d: %s", e.offset, e.msg)
}

// MatchError is PCRE2 giving up on a search (its match, depth or heap
// limit), in rg's words ("PCRE2: error matching: match limit exceeded").
// The searcher-facing methods of Matcher cannot return errors: they panic
// with a *MatchError, which internal/search recovers (it implements
// SearchAbort) and reports as the file's error.
type MatchError struct{ msg string }

func (e *MatchError) Error() string { return "PCRE2: error matching: " + e.msg }

// SearchAbort marks MatchError as an error a searcher recovers from a
// matcher's panic.
func (e *MatchError) SearchAbort() {}

func errorMessage(tls *libc.TLS, rc int32) string {
	const size = 256
	buf := tls.Alloc(size)
	defer tls.Free(size)
	n := lib.Xpcre2_get_error_message_8(tls, rc, buf, size)
	if n < 0 {
		return fmt.Sprintf("error code %d", rc)
	}
	return string(libc.GoBytes(buf, int(n)))
}

// compile options (pcre2.h).
const (
	optCaseless   = lib.DPCRE2_CASELESS
	optDotAll     = lib.DPCRE2_DOTALL
	optMultiline  = lib.DPCRE2_MULTILINE
	optUTF        = lib.DPCRE2_UTF
	optUCP        = lib.DPCRE2_UCP
	optInvalidUTF = lib.DPCRE2_MATCH_INVALID_UTF
)

// compileCode compiles pattern with options; crlf sets PCRE2's newline
// convention to ANYCRLF (as the pcre2 crate's crlf option).
func compileCode(pattern string, options uint32, crlf bool) (*code, error) {
	if len(pattern) > maxPatternLen {
		return nil, &compileError{offset: 0, msg: "pattern string is longer than the limit set by the application"}
	}
	tls := libc.NewTLS()
	defer tls.Close()
	pat := libc.Xmalloc(tls, types.Size_t(len(pattern)+1))
	if pat == 0 {
		return nil, &compileError{msg: "failed to get memory"}
	}
	defer libc.Xfree(tls, pat)
	copy(libc.GoBytes(pat, len(pattern)+1), pattern)
	ctx := lib.Xpcre2_compile_context_create_8(tls, 0)
	if ctx == 0 {
		return nil, &compileError{msg: "failed to get memory"}
	}
	defer lib.Xpcre2_compile_context_free_8(tls, ctx)
	if crlf {
		lib.Xpcre2_set_newline_8(tls, ctx, lib.DPCRE2_NEWLINE_ANYCRLF)
	}
	out := tls.Alloc(16) // int errorcode; PCRE2_SIZE erroroffset
	defer tls.Free(16)
	re := lib.Xpcre2_compile_8(tls, pat, lib.Tsize_t(len(pattern)), options, out, out+8, ctx)
	if re == 0 {
		raw := libc.GoBytes(out, 16)
		rc := int32(binary.NativeEndian.Uint32(raw[0:4]))
		off := int(binary.NativeEndian.Uint64(raw[8:16]))
		return nil, &compileError{offset: off, msg: errorMessage(tls, rc)}
	}
	c := &code{re: re, names: map[string]int{}}
	c.ncap = int(patternInfo32(tls, re, lib.DPCRE2_INFO_CAPTURECOUNT))
	c.lookBehind = 4 * (int(patternInfo32(tls, re, lib.DPCRE2_INFO_MAXLOOKBEHIND)) + 2)
	n := int(patternInfo32(tls, re, lib.DPCRE2_INFO_NAMECOUNT))
	size := int(patternInfo32(tls, re, lib.DPCRE2_INFO_NAMEENTRYSIZE))
	if n > 0 && size > 2 {
		tp := tls.Alloc(8)
		lib.Xpcre2_pattern_info_8(tls, re, lib.DPCRE2_INFO_NAMETABLE, tp)
		table := libc.GoBytes(uintptr(binary.NativeEndian.Uint64(libc.GoBytes(tp, 8))), n*size)
		tls.Free(8)
		for i := 0; i < n; i++ {
			e := table[i*size : (i+1)*size]
			name := e[2:]
			for j, b := range name {
				if b == 0 {
					name = name[:j]
					break
				}
			}
			c.names[string(name)] = int(e[0])<<8 | int(e[1])
		}
	}
	return c, nil
}

func patternInfo32(tls *libc.TLS, re uintptr, what uint32) uint32 {
	p := tls.Alloc(8)
	defer tls.Free(8)
	if lib.Xpcre2_pattern_info_8(tls, re, what, p) != 0 {
		return 0
	}
	return binary.NativeEndian.Uint32(libc.GoBytes(p, 4))
}

// requiredByte returns a byte that every match holds: PCRE2's last literal
// code unit, else its first.
func (c *code) requiredByte() (byte, bool) {
	tls := libc.NewTLS()
	defer tls.Close()
	if patternInfo32(tls, c.re, lib.DPCRE2_INFO_LASTCODETYPE) == 1 {
		return byte(patternInfo32(tls, c.re, lib.DPCRE2_INFO_LASTCODEUNIT)), true
	}
	if patternInfo32(tls, c.re, lib.DPCRE2_INFO_FIRSTCODETYPE) == 1 {
		return byte(patternInfo32(tls, c.re, lib.DPCRE2_INFO_FIRSTCODEUNIT)), true
	}
	return 0, false
}

// get returns a state for one goroutine's match calls; put returns it.
func (c *code) get() *state {
	c.mu.Lock()
	if n := len(c.free); n > 0 {
		s := c.free[n-1]
		c.free = c.free[:n-1]
		c.mu.Unlock()
		return s
	}
	c.mu.Unlock()
	tls := libc.NewTLS()
	s := &state{tls: tls}
	s.mctx = lib.Xpcre2_match_context_create_8(tls, 0)
	s.md = lib.Xpcre2_match_data_create_from_pattern_8(tls, c.re, 0)
	if s.mctx == 0 || s.md == 0 {
		panic(&MatchError{msg: "failed to get memory"})
	}
	lib.Xpcre2_set_match_limit_8(tls, s.mctx, matchLimit)
	lib.Xpcre2_set_depth_limit_8(tls, s.mctx, depthLimit)
	lib.Xpcre2_set_heap_limit_8(tls, s.mctx, heapLimitKiB)
	pairs := int(lib.Xpcre2_get_ovector_count_8(tls, s.md))
	raw := libc.GoBytes(lib.Xpcre2_get_ovector_pointer_8(tls, s.md), 16*pairs)
	s.ovec = unsafe.Slice((*uint64)(unsafe.Pointer(&raw[0])), 2*pairs)
	return s
}

func (c *code) put(s *state) {
	s.trim()
	c.mu.Lock()
	c.free = append(c.free, s)
	c.mu.Unlock()
}

const unset = ^uint64(0)

// exec runs one match of c on the n bytes of C memory at subj, from at.
// It reports whether there is a match; its offsets are in s.ovec. PCRE2
// errors panic with *MatchError.
func (c *code) exec(s *state, subj uintptr, n, at int) bool {
	rc := lib.Xpcre2_match_8(s.tls, c.re, subj, lib.Tsize_t(n), lib.Tsize_t(at), 0, s.md, s.mctx)
	if rc >= 0 {
		return true
	}
	if rc == lib.DPCRE2_ERROR_NOMATCH {
		return false
	}
	panic(&MatchError{msg: errorMessage(s.tls, rc)})
}

// match runs one match on b from at (b is copied into C memory).
func (c *code) match(s *state, b []byte, at int) bool {
	return c.exec(s, s.load(b), len(b), at)
}

// jitAvailable reports whether PCRE2 was built with its JIT (never, for
// the translated library).
func jitAvailable() bool {
	tls := libc.NewTLS()
	defer tls.Close()
	p := tls.Alloc(8)
	defer tls.Free(8)
	if lib.Xpcre2_config_8(tls, lib.DPCRE2_CONFIG_JIT, p) < 0 {
		return false
	}
	return binary.NativeEndian.Uint32(libc.GoBytes(p, 4)) == 1
}
