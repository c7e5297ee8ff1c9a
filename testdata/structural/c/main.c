#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node {
    int value;
    struct node *next;
};

static struct node *push(struct node *head, int value) {
    struct node *n = malloc(sizeof(*n));
    if (n == NULL) {
        perror("malloc");
        exit(1);
    }
    n->value = value;
    n->next = head;
    return n;
}

static void free_all(struct node *head) {
    while (head != NULL) {
        struct node *next = head->next;
        free(head);
        head = next;
    }
}

int sum(const struct node *head) {
    int s = 0;
    for (const struct node *p = head; p; p = p->next) {
        s += p->value;
    }
    return s;
}

int main(int argc, char **argv) {
    struct node *list = NULL;
    for (int i = 1; i < argc; i++) {
        list = push(list, atoi(argv[i]));
    }
    printf("%d\n", sum(list));
    printf("done\n");
    if (argc > 3 && strcmp(argv[1], "-v") == 0) {
        fprintf(stderr, "verbose\n");
    }
    free_all(list);
    return 0;
}
