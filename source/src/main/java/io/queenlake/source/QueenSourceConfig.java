package io.queenlake.source;

import io.queenlake.format.key.KeyBudget;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * Everything QueenSource needs, validated by {@link QueenSourceBuilder}; shipped to the enumerator
 * and every reader.
 *
 * @param brokerUrl one broker node's base URL (safeTime is per node: never a round-robin balancer)
 * @param token bearer token, or null
 * @param tenant the broker tenant id sent as {@code x-queen-tenant}
 * @param queues the mirrored queue names, or exactly {@code ["*"]} for every queue (re-listed every
 *     ten discovery intervals)
 * @param sink the sink name in KV keys ({@code s3:<sink>:<queue>:...})
 * @param instance this job's instance name in leases and presence rows
 * @param start where a queue with no commit pointer starts
 * @param safeGuardMs subtracted from safeTime before it becomes a frontier
 * @param discoveryIntervalMs cadence of discovery passes
 * @param fetchConcurrency fetch calls in flight per reader
 * @param leaseTtlMs lease and presence TTL; refreshed every TTL/3
 * @param maxWindowMs the window size: a split more than about one window ahead of the watermark pauses
 * @param lakeRoot the lake's base path with prefix (e.g. {@code s3://lake/queen}) where bucket
 *     checkpoints are read on a start without Flink state; null to skip them
 * @param requestTimeoutMs per HTTP request
 * @param keyBudget the lake's key layout, against which discovery under {@code *} skips a queue
 *     whose keys cannot fit in S3's limit; null to skip no queue
 */
@Internal
public record QueenSourceConfig(
        String brokerUrl,
        String token,
        String tenant,
        List<String> queues,
        String sink,
        String instance,
        StartMode start,
        long safeGuardMs,
        long discoveryIntervalMs,
        int fetchConcurrency,
        long leaseTtlMs,
        long maxWindowMs,
        String lakeRoot,
        long requestTimeoutMs,
        KeyBudget keyBudget)
        implements Serializable {

    private static final long serialVersionUID = 1L;

    public static final String DEFAULT_TENANT = QueenSourceOptions.DEFAULT_TENANT;

    public QueenSourceConfig {
        Objects.requireNonNull(brokerUrl, "brokerUrl");
        Objects.requireNonNull(tenant, "tenant");
        queues = List.copyOf(queues);
        Objects.requireNonNull(sink, "sink");
        Objects.requireNonNull(instance, "instance");
        Objects.requireNonNull(start, "start");
    }

    /** True when every queue of the tenant is mirrored. */
    public boolean allQueues() {
        return queues.equals(List.of("*"));
    }

    public long safeGuardMicros() {
        return safeGuardMs * 1000L;
    }
}
