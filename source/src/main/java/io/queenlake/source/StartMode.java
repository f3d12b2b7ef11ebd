package io.queenlake.source;

import java.util.Locale;

/**
 * Where a queue with no commit pointer starts ({@code QUEEN_S3_START}); a queue with a pointer
 * always continues from it.
 */
public enum StartMode {
    /** At the broker's safeTime when the queue is first found: only records stamped after it. */
    LATEST,
    /** At each partition's {@code logStart}: everything the broker still stores. */
    EARLIEST;

    /** Accepts the reference sink's spellings: {@code latest|now|end} and {@code earliest|beginning}. */
    public static StartMode parse(String value) {
        switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "latest":
            case "now":
            case "end":
                return LATEST;
            case "earliest":
            case "beginning":
                return EARLIEST;
            default:
                throw new IllegalArgumentException("QUEEN_S3_START='" + value
                        + "' is not a start position: use latest (or now, end) or earliest (or beginning)");
        }
    }
}
