package io.queenlake.format.model;

import java.util.Objects;

/**
 * Offsets of one partition that the broker no longer had when they were read (retention, or a
 * replaced incarnation): {@code from..to}, inclusive. Loss is never silent: every range lands in
 * the manifest of the window that found it.
 */
public record LostRange(String partition, long from, long to) {

    public LostRange {
        Objects.requireNonNull(partition, "partition");
        if (from < 0 || to < from) {
            throw new IllegalArgumentException(
                    "lost range of partition '" + partition + "' must have 0 <= from <= to, got " + from + ".." + to);
        }
    }

    public long count() {
        return to - from + 1;
    }
}
