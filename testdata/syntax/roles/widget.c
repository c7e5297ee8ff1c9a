#include "Widget.h"

/* a Widget counter */
struct Widget {
    int Widget;
};

int Widget(struct Widget *w);

int Widget(struct Widget *w) {
    return w->Widget + Widget(w);
}

typedef struct Widget Widget_t;

static const char *name = "Widget";
