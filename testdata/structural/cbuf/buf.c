/* A growable byte buffer. */
#include <stdlib.h>
#include <string.h>

struct buf {
	char *data;
	size_t len, cap;
};

static int grow(struct buf *b, size_t need)
{
	size_t cap = b->cap ? b->cap : 64, want;
	char *p;

	want = b->len + need;
	while (cap < want)
		cap *= 2;
	p = realloc(b->data, cap);
	if (p == NULL)
		return -1;
	b->data = p;
	b->cap = cap;
	return 0;
}

int buf_append(struct buf *b, const char *s, size_t n)
{
	int i, rc = 0;

	if (b->len + n > b->cap && (rc = grow(b, n)) != 0)
		return rc;
	for (i = 0; i < (int)n; i++)
		b->data[b->len + i] = s[i];
	b->len += n;
	return rc;
}

char *buf_detach(struct buf *b, size_t *len)
{
	char *out = b->data, *end;

	end = out + b->len;
	*len = (size_t)(end - out);
	b->data = NULL;
	b->len = b->cap = 0;
	return out;
}
