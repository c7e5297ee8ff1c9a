//go:build cgo

// A parse's memory comes from an arena (evg_arena): tree-sitter's
// allocator (ts_set_allocator) is pointed at evg_malloc and its kin, which
// bump-allocate from the arena of the calling thread's current parse
// (evg_cur, set by the parse and fill calls of flat_cgo.go for their
// duration) and fall back to the C library everywhere else. A tree is then
// never deleted node by node: once its nodes are copied out, the arena is
// reset, which frees the whole tree and the parser's state at once. Before,
// ts_tree_delete's walk over every node and the C library's malloc and free
// took about an eighth of a structural search's time.
//
// free of a small arena block keeps it for the next allocation of its size
// (a larger one goes with the reset); free,
// realloc and calloc of any other block go to the C library, whatever the
// thread, so memory that tree-sitter or an external scanner got from the C
// library before or outside a parse is freed where it came from.

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "arena.h"

static __thread evg_arena *evg_cur;

// Every block is preceded by its size, on 16 bytes so that blocks keep
// malloc's alignment.
#define EVG_HDR 16

static size_t evg_round(size_t n) { return (n + EVG_HDR + 15) & ~(size_t)15; }

evg_arena *evg_arena_new(void) { return calloc(1, sizeof(evg_arena)); }

void evg_arena_enter(evg_arena *a) { evg_cur = a; }

int evg_arena_spilled(const evg_arena *a) { return a->spilled; }

void evg_arena_leave(void) { evg_cur = NULL; }

static int evg_owns(const evg_arena *a, const void *p) {
	const char *q = p;
	for (int i = 0; i < a->n; i++) {
		if (q >= a->c[i].base && q < a->c[i].base + a->c[i].size) return 1;
	}
	return 0;
}

// evg_log2 is the power of two at or below n (n > 0).
static int evg_log2(size_t n) { return 63 - __builtin_clzll((unsigned long long)n); }

// evg_bin is the bin of a freed block of size bytes (size > EVG_SMALL):
// blocks of bin b have at least evg_bin_min(b) bytes.
static int evg_bin(size_t size) {
	int k = evg_log2(size);
	return k * EVG_SUB + (int)((size >> (k - 2)) & (EVG_SUB - 1));
}

static size_t evg_bin_min(int b) {
	int k = b / EVG_SUB;
	return ((size_t)1 << k) + (size_t)(b % EVG_SUB) * ((size_t)1 << (k - 2));
}

// evg_reuse pops a freed block that holds need bytes, or returns NULL:
// one of its own size when small, else the first of the next few bins
// whose every block is large enough.
static void *evg_reuse(evg_arena *a, size_t need) {
	void **list = NULL;
	if (need <= EVG_SMALL) {
		list = &a->freed[need / 16];
	} else {
		int b = evg_bin(need);
		if (evg_bin_min(b) < need) b++;
		for (int i = 0; i < 8 && b + i < EVG_BIG_CLASSES; i++) {
			if (a->big[b + i]) {
				list = &a->big[b + i];
				break;
			}
		}
		if (!list) return NULL;
	}
	void *p = *list;
	if (p) *list = *(void **)p;
	return p;
}

static void *evg_bump(evg_arena *a, size_t n) {
	size_t need = evg_round(n);
	char *b = evg_reuse(a, need);
	if (b) {
		// The header now says n: the block's spare bytes are lost to
		// it until the reset, never handed out twice.
		*(size_t *)(b - EVG_HDR) = n;
		return b;
	}
	if (a->spent + need > EVG_BUDGET) {
		// A large tree: the rest of it comes from the C library, which
		// reuses freed memory better; the tree is then deleted before
		// the reset (evg_fill), which frees those blocks.
		a->spilled = 1;
		return malloc(n);
	}
	a->spent += need;
	for (;;) {
		if (a->cur < a->n) {
			evg_chunk *k = &a->c[a->cur];
			if (k->size - k->used >= need) {
				char *p = k->base + k->used;
				k->used += need;
				*(size_t *)p = n;
				a->last = p + EVG_HDR;
				return a->last;
			}
			a->cur++;
			continue;
		}
		if (a->n == EVG_MAX_CHUNKS) return NULL;
		size_t size = (size_t)EVG_FIRST_CHUNK << (a->n < 12 ? a->n : 12);
		if (size < need) size = need;
		// Chunks are mapped, not malloc'd: unmapping one at the reset
		// gives its pages back at once (the C library would keep a
		// freed large block's pages after raising its mmap threshold).
		size = (size + 4095) & ~(size_t)4095;
		char *base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (base == MAP_FAILED) {
			// No new chunk: the rest of the parse is the C library's.
			a->spilled = 1;
			return malloc(n);
		}
		a->c[a->n].base = base;
		a->c[a->n].size = size;
		a->c[a->n].used = 0;
		a->n++;
		a->total += size;
	}
}

// evg_got is what tree-sitter's own allocator does when the system has no
// memory left (its callers do not check): say so and abort.
static void *evg_got(void *p, size_t n) {
	if (!p && n > 0) {
		fprintf(stderr, "tree-sitter failed to allocate %zu bytes", n);
		abort();
	}
	return p;
}

void *evg_malloc(size_t n) {
	evg_arena *a = evg_cur;
	return evg_got(a ? evg_bump(a, n) : malloc(n), n);
}

void *evg_calloc(size_t n, size_t size) {
	evg_arena *a = evg_cur;
	if (!a) return evg_got(calloc(n, size), n * size);
	if (size && n > SIZE_MAX / size) return evg_got(NULL, 1);
	void *p = evg_got(evg_bump(a, n * size), n * size);
	memset(p, 0, n * size);
	return p;
}

void *evg_realloc(void *p, size_t n) {
	evg_arena *a = evg_cur;
	if (!p) return evg_malloc(n);
	if (!a || !evg_owns(a, p)) return evg_got(realloc(p, n), n);
	size_t old = *(size_t *)((char *)p - EVG_HDR);
	if (n <= old) return p;
	evg_chunk *k = &a->c[a->cur < a->n ? a->cur : 0];
	if (p == a->last && a->cur < a->n && k->base + k->used == (char *)p - EVG_HDR + evg_round(old) &&
	    k->size - (k->used - evg_round(old)) >= evg_round(n)) {
		// The last block of the current chunk grows in place.
		k->used += evg_round(n) - evg_round(old);
		*(size_t *)((char *)p - EVG_HDR) = n;
		return p;
	}
	void *q = evg_got(evg_bump(a, n), n);
	memcpy(q, p, old);
	evg_free(p);
	return q;
}

void evg_free(void *p) {
	evg_arena *a = evg_cur;
	if (!p) return;
	if (!a || !evg_owns(a, p)) {
		free(p);
		return;
	}
	size_t size = evg_round(*(size_t *)((char *)p - EVG_HDR));
	if (p == a->last) return; // it may still grow in place
	void **list;
	if (size <= EVG_SMALL) {
		list = &a->freed[size / 16];
	} else {
		int b = evg_bin(size);
		if (b >= EVG_BIG_CLASSES) return;
		list = &a->big[b];
	}
	*(void **)p = *list;
	*list = p;
}

void evg_arena_reset(evg_arena *a, size_t keep) {
	a->cur = 0;
	a->last = NULL;
	a->spent = 0;
	a->spilled = 0;
	memset(a->freed, 0, sizeof a->freed);
	memset(a->big, 0, sizeof a->big);
	// Chunks past keep bytes go back to the system; the first ones are
	// kept for the next parse.
	size_t kept = 0;
	int n = 0;
	for (int i = 0; i < a->n; i++) {
		if (kept + a->c[i].size <= keep || i == 0) {
			kept += a->c[i].size;
			a->c[i].used = 0;
			a->c[n++] = a->c[i];
		} else {
			munmap(a->c[i].base, a->c[i].size);
		}
	}
	a->n = n;
	a->total = kept;
}
