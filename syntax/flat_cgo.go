//go:build cgo

package syntax

/*
#include <stdint.h>
#include <stdlib.h>
#include <stdbool.h>
#include "arena.h"
#ifdef __GLIBC__
#include <malloc.h>
#endif

// evg_trim gives the C heap's free pages back to the system (glibc keeps
// the pages of a freed tree, in the arena of the thread that built it).
static void evg_trim(void) {
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

// The part of tree-sitter's C API (api.h of the runtime that
// github.com/smacker/go-tree-sitter compiles and links) that flattening
// needs; declared here, as the runtime's header is not on the include path.
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct TSLanguage TSLanguage;
typedef struct { uint32_t context[4]; const void *id; const TSTree *tree; } evg_TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } evg_TSTreeCursor;

TSParser *ts_parser_new(void);
void ts_parser_delete(TSParser *);
bool ts_parser_set_language(TSParser *, const TSLanguage *);
void ts_parser_set_timeout_micros(TSParser *, uint64_t);
TSTree *ts_parser_parse_string(TSParser *, const TSTree *, const char *, uint32_t);
void ts_tree_delete(TSTree *);
evg_TSNode ts_tree_root_node(const TSTree *);
evg_TSTreeCursor ts_tree_cursor_new(evg_TSNode);
void ts_tree_cursor_delete(evg_TSTreeCursor *);
bool ts_tree_cursor_goto_first_child(evg_TSTreeCursor *);
bool ts_tree_cursor_goto_next_sibling(evg_TSTreeCursor *);
bool ts_tree_cursor_goto_parent(evg_TSTreeCursor *);
evg_TSNode ts_tree_cursor_current_node(const evg_TSTreeCursor *);
uint16_t ts_tree_cursor_current_field_id(const evg_TSTreeCursor *);
uint32_t ts_language_field_count(const TSLanguage *);
const char *ts_language_field_name_for_id(const TSLanguage *, uint16_t);
uint16_t ts_node_symbol(evg_TSNode);
uint32_t ts_node_start_byte(evg_TSNode);
uint32_t ts_node_end_byte(evg_TSNode);
uint32_t ts_node_child_count(evg_TSNode);
uint32_t ts_node_descendant_count(evg_TSNode);
bool ts_node_is_named(evg_TSNode);
bool ts_node_is_missing(evg_TSNode);
bool ts_node_is_extra(evg_TSNode);
bool ts_node_has_error(evg_TSNode);
uint16_t ts_language_symbol_for_name(const TSLanguage *, const char *, uint32_t, bool);
void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *));

// evg_use_arenas points tree-sitter's allocator at the arena's functions
// (arena.c), once, before the first parse.
static void evg_use_arenas(void) { ts_set_allocator(evg_malloc, evg_calloc, evg_realloc, evg_free); }

typedef struct {
	uint32_t start, end;
	int32_t parent, next;
	uint32_t nkids;
	uint16_t sym;
	uint8_t flags, field;
} evg_node;

// evg_parse parses src into *tree, in arena a (the C library's heap when a
// is NULL), and counts its nodes (the cursor's nodes: the visible ones,
// the root included). Returns 0 on success, 1 on timeout or parser
// failure, 2 when out of memory; an arena is to be reset whatever the
// result.
// evg_drop deletes a tree that holds C library blocks (a tree wholly in
// an arena goes with its reset).
static void evg_drop(evg_arena *a, TSTree *t) {
	if (!t) return;
	evg_arena_enter(a);
	if (!a || evg_arena_spilled(a)) ts_tree_delete(t);
	evg_arena_leave();
}

static int evg_parse(evg_arena *a, const TSLanguage *lang, const char *src, uint32_t len, uint64_t timeout,
                     TSTree **tree, uint32_t *count) {
	*tree = NULL;
	*count = 0;
	evg_arena_enter(a);
	TSParser *p = ts_parser_new();
	int rc = 0;
	if (!p) {
		rc = 2;
	} else if (!ts_parser_set_language(p, lang)) {
		rc = 1;
	} else {
		ts_parser_set_timeout_micros(p, timeout);
		*tree = ts_parser_parse_string(p, NULL, src, len);
		if (!*tree) rc = 1;
	}
	// The parser's own blocks are the arena's; its external scanner's
	// may be the C library's, which delete frees.
	if (p) ts_parser_delete(p);
	if (rc == 0) *count = ts_node_descendant_count(ts_tree_root_node(*tree));
	evg_arena_leave();
	return rc;
}

// evg_fill writes the nodes of t in pre-order to nodes (room for cap of
// them: the count evg_parse gave). It keeps no pointer to nodes. A tree
// in arena a is freed by the arena's reset; one of the C library (a NULL)
// is deleted here. Returns the number written (cap on success), or -1 when out of
// memory or when the tree has more nodes than its count.
static int64_t evg_fill(evg_arena *a, TSTree *t, evg_node *nodes, uint32_t cap) {
	uint32_t n = 0, dcap = 64, depth = 0;
	int32_t *last = malloc(dcap * sizeof(int32_t));   // last child seen at each depth
	int32_t *parents = malloc(dcap * sizeof(int32_t)); // the parent at each depth
	if (!last || !parents) {
		free(last);
		free(parents);
		evg_arena_enter(a);
		if (!a || evg_arena_spilled(a)) ts_tree_delete(t);
		evg_arena_leave();
		return -1;
	}
	evg_arena_enter(a);
	evg_TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(t));
	last[0] = -1;
	parents[0] = -1;
	int64_t rc = 0;
	for (;;) {
		evg_TSNode nd = ts_tree_cursor_current_node(&c);
		if (n == cap) { rc = -1; break; }
		evg_node *e = &nodes[n];
		e->start = ts_node_start_byte(nd);
		e->end = ts_node_end_byte(nd);
		e->parent = parents[depth];
		e->next = -1;
		e->nkids = ts_node_child_count(nd);
		e->sym = ts_node_symbol(nd);
		e->flags = (ts_node_is_named(nd) ? 1 : 0) | (ts_node_is_missing(nd) ? 2 : 0) |
		           (ts_node_is_extra(nd) ? 4 : 0) | (ts_node_has_error(nd) ? 8 : 0);
		uint16_t fid = ts_tree_cursor_current_field_id(&c);
		e->field = fid > 254 ? 255 : (uint8_t)fid; // 255: a field id over 254
		if (last[depth] >= 0) nodes[last[depth]].next = (int32_t)n;
		last[depth] = (int32_t)n;
		uint32_t self = n++;
		if (ts_tree_cursor_goto_first_child(&c)) {
			depth++;
			if (depth == dcap) {
				dcap *= 2;
				int32_t *g1 = realloc(last, dcap * sizeof(int32_t));
				if (g1) last = g1;
				int32_t *g2 = realloc(parents, dcap * sizeof(int32_t));
				if (g2) parents = g2;
				if (!g1 || !g2) { rc = -1; break; }
			}
			last[depth] = -1;
			parents[depth] = (int32_t)self;
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (depth == 0 || !ts_tree_cursor_goto_parent(&c)) goto done;
			depth--;
		}
	}
done:
	// A tree in an arena is not deleted: the arena's reset frees it.
	ts_tree_cursor_delete(&c);
	// A tree that spilled out of its arena (or was never in one) holds C
	// library blocks: deleting it frees those (the arena's own go with
	// the reset).
	if (!a || evg_arena_spilled(a)) ts_tree_delete(t);
	evg_arena_leave();
	free(last);
	free(parents);
	return rc < 0 ? rc : (int64_t)n;
}
*/
import "C"

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
	"golang.org/x/sync/semaphore"
)

// languagePtr is the TSLanguage pointer inside a *sitter.Language (its only
// field).
func languagePtr(l *sitter.Language) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(l))
}

// The flat node must have the C struct's layout.
var _ = [1]int{}[unsafe.Sizeof(Node{})-C.sizeof_evg_node]

// kinds returns lang's symbol table.
func kinds(lang Language) (*kindTable, error) {
	if k, ok := kindTables.Load(lang); ok {
		return k.(*kindTable), nil
	}
	g := grammars()[lang]
	if g == nil {
		return nil, ErrNoParser
	}
	g.init()
	n := int(g.lang.SymbolCount())
	k := &kindTable{names: g.names, byName: map[string]uint16{}}
	for i := 0; i < n; i++ {
		if g.lang.SymbolType(sitter.Symbol(i)) != sitter.SymbolTypeRegular {
			continue
		}
		name := g.names[i]
		if _, ok := k.byName[name]; ok {
			continue
		}
		// tree-sitter's own lookup: the public symbol of the first
		// visible named symbol of that name (what ts_node_symbol reports
		// for nodes of the kind).
		cs := C.CString(name)
		k.byName[name] = uint16(C.ts_language_symbol_for_name((*C.TSLanguage)(languagePtr(g.lang)), cs, C.uint32_t(len(name)), true))
		C.free(unsafe.Pointer(cs))
	}
	tl := (*C.TSLanguage)(languagePtr(g.lang))
	nf := int(C.ts_language_field_count(tl))
	k.fields = make([]string, nf+1)
	for i := 1; i <= nf; i++ {
		k.fields[i] = C.GoString(C.ts_language_field_name_for_id(tl, C.uint16_t(i)))
	}
	got, _ := kindTables.LoadOrStore(lang, k)
	return got.(*kindTable), nil
}

// parseTree runs the parser over src in one call into C and copies the
// flattened nodes into Go memory.
func parseFlat(lang Language, src []byte) (*Tree, error) {
	k, err := kinds(lang)
	if err != nil {
		return nil, err
	}
	g := grammars()[lang]
	buf := src
	if len(buf) == 0 {
		buf = []byte{0}
	}
	cs := (*C.char)(unsafe.Pointer(&buf[0]))
	// A large source's share of the budget is held until its tree is
	// freed (the deferred release of the arena runs first).
	if len(src) >= parseLargeBytes {
		weight := min(int64(len(src)), parseBudget)
		_ = parsing.Acquire(context.Background(), weight)
		defer parsing.Release(weight)
		largeParsing.add(len(src))
		defer largeParsing.add(-len(src))
	}
	var tree *C.TSTree
	var count C.uint32_t
	a := takeArena()
	defer releaseArena(a)
	rc := C.evg_parse(a, (*C.TSLanguage)(languagePtr(g.lang)), cs, C.uint32_t(len(src)),
		C.uint64_t(ParseTimeout.Microseconds()), &tree, &count)
	switch rc {
	case 0:
	case 1:
		return nil, fmt.Errorf("%w: parsing took longer than %v", ErrTooLarge, ParseTimeout)
	default:
		return nil, &Error{"parser failure"}
	}
	// The nodes are written straight into Go memory (they hold no Go
	// pointer, and C keeps none): the tree and one copy of its nodes are
	// all the memory a parse takes at once.
	nodes := make([]Node, int(count))
	if len(nodes) == 0 {
		C.evg_drop(a, tree)
		return nil, &Error{"parser failure"}
	}
	if n := C.evg_fill(a, tree, (*C.evg_node)(unsafe.Pointer(&nodes[0])), count); n != C.int64_t(count) {
		return nil, &Error{"parser failure"}
	}
	if C.evg_arena_spilled(a) != 0 {
		// The C library's share of a large tree: its pages go back, so
		// that they and the next tree's arena are not resident at once.
		C.evg_trim()
		arenaSpills.Add(1)
	}
	t := &Tree{Lang: lang, Src: src, Nodes: nodes, kinds: k}
	if len(nodes) > 0 {
		t.HasError = nodes[0].HasError()
	}
	return t, nil
}

// parsing is the parse budget (parseBudget): the parse of a large source
// holds as many bytes of it as the source has, up to the whole budget.
var parsing = semaphore.NewWeighted(parseBudget)

// largeParsing counts the bytes of the large sources being parsed, and
// their most at once (TestParseBudget checks it against the budget).
var largeParsing inFlight

// inFlight is a count of bytes in use and its peak.
type inFlight struct {
	mu        sync.Mutex
	now, peak int
}

func (f *inFlight) add(n int) {
	f.mu.Lock()
	f.now += n
	f.peak = max(f.peak, f.now)
	f.mu.Unlock()
}

// arenaSpills counts the parses whose tree outgrew its arena's budget
// (TestParseFlatArenas checks that its large source does).
var arenaSpills atomic.Int64

// arenas are the parse arenas (arena.c) not in use: one per concurrent
// parse at most, kept for the life of the process.
var arenas struct {
	sync.Mutex
	free []*C.evg_arena
}

// useArenas points tree-sitter's allocator at the arenas, before the first
// parse of the process.
var useArenas = sync.OnceFunc(func() { C.evg_use_arenas() })

// takeArena returns an arena for one parse (a new one when all are taken).
func takeArena() *C.evg_arena {
	useArenas()
	arenas.Lock()
	defer arenas.Unlock()
	if n := len(arenas.free); n > 0 {
		a := arenas.free[n-1]
		arenas.free = arenas.free[:n-1]
		return a
	}
	a := C.evg_arena_new()
	if a == nil {
		panic("syntax: out of memory for a parse arena")
	}
	return a
}

// releaseArena frees everything of the parse in a (its tree, its parser)
// and keeps a for the next parse, with at most arenaKeepBytes of its
// memory.
func releaseArena(a *C.evg_arena) {
	C.evg_arena_reset(a, C.size_t(arenaKeepBytes))
	arenas.Lock()
	arenas.free = append(arenas.free, a)
	arenas.Unlock()
}
