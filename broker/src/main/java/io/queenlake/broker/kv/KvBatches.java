package io.queenlake.broker.kv;

import io.queenlake.broker.client.KvOp;
import java.util.List;

/** Cuts a list into the slices one KV batch may hold ({@link KvOp#MAX_OPS}), in order. */
final class KvBatches {

    /** One slice: {@code items} starts at index {@code from} of the whole list. */
    @FunctionalInterface
    interface Slice<T> {
        void accept(int from, List<T> items);
    }

    private KvBatches() {}

    /** Hands each slice to {@code slice} in order; a failure stops the walk, the slices before stay done. */
    static <T> void forEach(List<T> items, Slice<T> slice) {
        for (int from = 0; from < items.size(); from += KvOp.MAX_OPS) {
            slice.accept(from, items.subList(from, Math.min(items.size(), from + KvOp.MAX_OPS)));
        }
    }
}
