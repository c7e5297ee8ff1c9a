// The parse arena of arena.c (see there).

#include <stddef.h>

// EVG_MAX_CHUNKS bounds an arena's chunks; chunk i has EVG_FIRST_CHUNK << i
// bytes (i capped at 12) or the one block that did not fit, so that an
// arena reaches gigabytes long before running out of chunks.
#define EVG_MAX_CHUNKS 48
#define EVG_FIRST_CHUNK ((size_t)1 << 20)

// EVG_BUDGET is what one parse takes from its arena; past it, blocks come
// from the C library. A large tree's peak memory is then the C library's
// (which reuses freed blocks better than the arena), while the many small
// trees of a walk are freed by the reset alone.
#define EVG_BUDGET ((size_t)8 << 20)

// Freed blocks of up to EVG_SMALL bytes (header included) are kept on a
// list per size, 16 bytes apart, and handed out again before the arena
// grows: a parse frees and allocates subtrees and stack nodes all along.
#define EVG_SMALL 512
#define EVG_CLASSES (EVG_SMALL / 16 + 1)
// Larger freed blocks are kept in EVG_SUB bins per power of two of their
// size, from EVG_SMALL up to 2^31 bytes (the arrays a parse grows and
// copies).
#define EVG_SUB 4
#define EVG_BIG_CLASSES (EVG_SUB * 32)

typedef struct {
	char *base;
	size_t size, used;
} evg_chunk;

typedef struct {
	evg_chunk c[EVG_MAX_CHUNKS];
	int n, cur;   // chunks held, chunk being filled
	void *last;   // the last block handed out (it may grow in place)
	size_t total; // bytes of the chunks held
	size_t spent; // bytes handed out from the chunks since the reset
	int spilled;  // blocks came from the C library (spent reached EVG_BUDGET)
	void *freed[EVG_CLASSES]; // freed small blocks by size / 16, linked
	void *big[EVG_BIG_CLASSES]; // freed larger blocks by log2(size), linked
} evg_arena;

evg_arena *evg_arena_new(void);
void evg_arena_enter(evg_arena *a);
void evg_arena_leave(void);
void evg_arena_reset(evg_arena *a, size_t keep);
int evg_arena_spilled(const evg_arena *a);
void *evg_malloc(size_t n);
void *evg_calloc(size_t n, size_t size);
void *evg_realloc(void *p, size_t n);
void evg_free(void *p);
