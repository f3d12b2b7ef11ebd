package io.queenlake.broker.client;

import java.util.List;

/**
 * One {@code POST /api/v1/fetch} call.
 *
 * @param maxWaitMs 0 answers at once; above 0 (with {@code minBytes > 0}) the broker long-polls up
 *     to this many milliseconds (it caps at 30,000)
 * @param minBytes payload bytes that end a long poll early
 */
public record FetchRequest(List<FetchEntry> entries, int maxWaitMs, int minBytes) {

    /** The broker's per-call ceiling on entries. */
    public static final int MAX_ENTRIES = 1024;

    public FetchRequest {
        entries = List.copyOf(entries);
        if (maxWaitMs < 0) {
            throw new IllegalArgumentException("maxWaitMs must be 0 or more, was " + maxWaitMs);
        }
    }

    /** A read that answers at once (no long poll), as the sink always reads. */
    public static FetchRequest immediate(List<FetchEntry> entries) {
        return new FetchRequest(entries, 0, 1);
    }
}
