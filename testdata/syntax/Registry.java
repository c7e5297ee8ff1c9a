package com.example.registry;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A registry of named services: a syntax fixture.
 */
@SuppressWarnings("unchecked")
public class Registry<T extends Comparable<T>> {
    public static final int MAX = 128;

    private final List<T> items = new ArrayList<>();

    /** Builds an empty registry. */
    public Registry() {
        this(MAX);
    }

    Registry(int capacity) {
        // capacity is advisory
    }

    // Adds an item.
    @Deprecated
    public void add(T item) {
        if (items.size() >= MAX) {
            throw new IllegalStateException("full");
        }
        items.add(item);
    }

    public <R> List<R> map(Function<? super T, ? extends R> f) {
        List<R> out = new ArrayList<>();
        for (T t : items) {
            out.add(f.apply(t));
        }
        return out;
    }

    /** A node in the registry tree. */
    public static class Node {
        String name;

        static class Leaf extends Node {
            int weight() {
                return 1;
            }
        }
    }

    interface Visitor<R> {
        R visit(Node n);

        default R visitAll(List<Node> ns) {
            R last = null;
            for (Node n : ns) {
                last = visit(n);
            }
            return last;
        }
    }

    enum State {
        OPEN,
        CLOSED;

        boolean isOpen() {
            return this == OPEN;
        }
    }

    record Pair<A, B>(A first, B second) {}
}
