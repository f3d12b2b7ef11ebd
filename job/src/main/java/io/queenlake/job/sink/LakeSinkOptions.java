package io.queenlake.job.sink;

import io.queenlake.source.SettingSpec;

/**
 * The options the lake sink reads, defined once: {@link LakeSinkBuilder} checks against them and
 * the job's settings list includes them.
 */
public final class LakeSinkOptions {

    /**
     * Queues whose windows commit at once. A window's commit mostly waits: a few S3 requests of
     * 20-50 ms and KV calls of about 5 ms, one after another; thousands of queues whose windows
     * close on one epoch-aligned grid arrive as one burst, so the default is sized for a real
     * bucket's latency, not for loopback. Per queue, windows still commit one at a time in {@code k}
     * order.
     */
    public static final SettingSpec COMMIT_CONCURRENCY = SettingSpec.number("QUEEN_S3_COMMIT_CONCURRENCY")
            .defaultValue(64).range(1, 1_024)
            .description("Queues whose windows are committed at once; each queue's windows still one at a time, in order.")
            .build();

    private LakeSinkOptions() {}
}
