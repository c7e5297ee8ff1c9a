/* A linked list: a syntax fixture. */
#include <stdio.h>
#include <stdlib.h>

#define MAX_NODES 1024
#define SQUARE(x) ((x) * (x))

/* One node. */
struct node {
    int value;
    struct node *next;
};

typedef struct {
    struct node *head;
    size_t len;
} list_t;

enum color { RED, GREEN, BLUE };

static int counter = 0;

int list_push(list_t *l, int v);

/*
 * Allocates a node.
 */
static struct node *node_new(int v)
{
    struct node *n = malloc(sizeof *n);
    if (n == NULL)
        return NULL;
    n->value = v;
    n->next = NULL;
    return n;
}

int list_push(list_t *l, int v)
{
    struct node *n = node_new(v);
    if (!n) {
        return -1;
    }
    n->next = l->head;
    l->head = n;
    l->len++;
    counter++;
    return 0;
}

#ifdef DEBUG
void list_dump(const list_t *l)
{
    for (struct node *n = l->head; n; n = n->next)
        printf("%d\n", n->value);
}
#endif

int main(void)
{
    list_t l = {0};
    list_push(&l, SQUARE(3));
    return l.len == 1 ? 0 : 1;
}
