package io.queenlake.connector.sink;

import io.queenlake.source.SettingSpec;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The options the lake sink reads, defined once: {@link LakeSinkBuilder} checks against them and
 * the job's settings list includes them.
 */
@PublicEvolving
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

    /**
     * KV write calls per second the job's commits make at most, all commit subtasks together:
     * Queen budgets about 100 KV writes a second per tenant over HTTP (answering 429 with
     * {@code Retry-After} above it), and the lease rounds and other sinks of the tenant need their
     * share. The lanes' intents and pointers wait for the next call and share it (up to 256
     * operations a call, each with its own {@code expect}), so a burst of thousands of windows
     * costs a few calls, not two per window.
     */
    public static final SettingSpec COMMIT_KV_WRITES_PER_SECOND = SettingSpec.number("QUEEN_S3_COMMIT_KV_WRITES_PER_SECOND")
            .defaultValue(40).range(1, 10_000)
            .description("KV write calls a second the commits make at most, all subtasks together; intents and"
                    + " pointers of many queues share each call.")
            .build();

    private LakeSinkOptions() {}
}
