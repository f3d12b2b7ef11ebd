package io.queenlake.connector.window;

import io.queenlake.broker.client.QueenNames;
import io.queenlake.format.model.Align;
import io.queenlake.source.QueenSourceOptions;
import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * What the window operator needs, validated before a job is built: the lake's tenant and sink
 * name, the window grid, the size-cut target, the checkpoint cadence, and how to reach the
 * broker for the commit pointer (a fresh start without Flink state continues from it). Each
 * refusal is one sentence naming the setting. The token never appears in {@link #toString()}.
 *
 * @param tenant the broker tenant id written into keys and sent to the broker
 * @param sink the sink name of the KV keys ({@code QUEEN_S3_SINK})
 * @param maxWindowMs the window size ({@code QUEEN_S3_MAX_WINDOW_MS})
 * @param align the boundary no window crosses ({@code QUEEN_S3_ALIGN})
 * @param targetBytes the size-cut target in uncompressed weight ({@code QUEEN_S3_TARGET_MB} in bytes)
 * @param checkpointEvery attach a checkpoint document every this many windows; 0 disables
 * @param brokerUrl {@code QUEEN_URL}
 * @param token {@code QUEEN_TOKEN}, may be null or empty
 * @param requestTimeout the broker request timeout
 * @param memoryBytes the open windows' budget of one task manager ({@code QUEEN_S3_MEMORY_MB} in bytes),
 *     shared by every window operator in the JVM ({@link OpenWindowBudget})
 */
@PublicEvolving
public record WindowSettings(
        String tenant,
        String sink,
        long maxWindowMs,
        Align align,
        long targetBytes,
        int checkpointEvery,
        String brokerUrl,
        String token,
        Duration requestTimeout,
        long memoryBytes)
        implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The tenant of a broker without tenancy. */
    public static final String DEFAULT_TENANT = QueenSourceOptions.DEFAULT_TENANT;

    /** {@code QUEEN_S3_MEMORY_MB}'s default, in bytes. */
    public static final long DEFAULT_MEMORY_BYTES = Long.parseLong(WindowOptions.MEMORY_MB.defaultValue()) * 1024L * 1024L;

    /** Settings with the default memory budget ({@code QUEEN_S3_MEMORY_MB=512}). */
    public WindowSettings(String tenant, String sink, long maxWindowMs, Align align, long targetBytes,
            int checkpointEvery, String brokerUrl, String token, Duration requestTimeout) {
        this(tenant, sink, maxWindowMs, align, targetBytes, checkpointEvery, brokerUrl, token, requestTimeout,
                DEFAULT_MEMORY_BYTES);
    }

    public WindowSettings {
        if (tenant == null || tenant.isBlank()) {
            throw new IllegalArgumentException("the tenant is missing; set it to the broker tenant id, e.g. "
                    + DEFAULT_TENANT);
        }
        if (!QueenSourceOptions.SINK.passes(sink)) {
            throw new IllegalArgumentException(QueenSourceOptions.SINK.envName() + "='" + sink
                    + "' must be " + QueenNames.SINK_NAME_RULE);
        }
        WindowRules.validate(maxWindowMs, align);
        if (targetBytes < 1) {
            throw new IllegalArgumentException("the size-cut target (QUEEN_S3_TARGET_MB) must be at least 1 byte, got "
                    + targetBytes);
        }
        long maxCheckpointEvery = WindowOptions.CHECKPOINT_EVERY.max();
        if (checkpointEvery < 0 || checkpointEvery > maxCheckpointEvery) {
            throw new IllegalArgumentException(WindowOptions.CHECKPOINT_EVERY.envName() + "=" + checkpointEvery
                    + " is outside 0.." + maxCheckpointEvery + " (0 disables checkpoint documents)");
        }
        if (brokerUrl == null || brokerUrl.isBlank()) {
            throw new IllegalArgumentException(
                    "the Queen broker URL is missing; set QUEEN_URL, e.g. http://localhost:6632");
        }
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        if (requestTimeout.isZero() || requestTimeout.isNegative()) {
            throw new IllegalArgumentException("the broker request timeout must be positive, got " + requestTimeout);
        }
        if (memoryBytes < 1) {
            throw new IllegalArgumentException("the open windows' budget (" + WindowOptions.MEMORY_MB.envName()
                    + ") must be at least 1 byte, got " + memoryBytes);
        }
    }

    /** The same settings with another open windows' budget, in bytes. */
    public WindowSettings withMemoryBytes(long bytes) {
        return new WindowSettings(tenant, sink, maxWindowMs, align, targetBytes, checkpointEvery, brokerUrl, token,
                requestTimeout, bytes);
    }

    /** The window size in microseconds. */
    public long maxWindowMicros() {
        return maxWindowMs * 1000L;
    }

    /** Whether window {@code k} carries a checkpoint document ({@code k % every == 0}). */
    public boolean checkpointsAt(long k) {
        return checkpointEvery > 0 && k % checkpointEvery == 0;
    }

    @Override
    public String toString() {
        return "WindowSettings[tenant=" + tenant + ", sink=" + sink + ", maxWindowMs=" + maxWindowMs + ", align="
                + align.wireName() + ", targetBytes=" + targetBytes + ", checkpointEvery=" + checkpointEvery
                + ", brokerUrl=" + brokerUrl + ", token=" + (token == null || token.isEmpty() ? "none" : "***")
                + ", requestTimeout=" + requestTimeout + ", memoryBytes=" + memoryBytes + "]";
    }
}
