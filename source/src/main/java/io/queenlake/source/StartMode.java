package io.queenlake.source;

import org.apache.flink.annotation.PublicEvolving;

/**
 * Where a queue with no commit pointer starts ({@link QueenSourceOptions#START}); a queue with a pointer
 * always continues from it.
 */
@PublicEvolving
public enum StartMode {
    /** At the broker's safeTime when the queue is first found: only records stamped after it. */
    LATEST,
    /** At each partition's {@code logStart}: everything the broker still stores. */
    EARLIEST;

    /** Accepts {@link QueenSourceOptions#START}'s spellings: {@code latest|now|end} and {@code earliest|beginning}. */
    public static StartMode parse(String value) {
        QueenOption<StartMode> option = QueenSourceOptions.START;
        return option.parse(value.trim(), problem -> new IllegalArgumentException(option.key() + "='" + value
                + "' is not a start position: use " + option.allowed() + "."));
    }
}
