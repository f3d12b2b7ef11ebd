package io.queenlake.connector.window;

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
 * @param sink the sink name of the KV keys ({@code queen.s3.sink})
 * @param maxWindowMs the window size ({@code queen.s3.max-window-ms})
 * @param align the boundary no window crosses ({@code queen.s3.align})
 * @param targetBytes the size-cut target in uncompressed weight ({@code queen.s3.target-mb} in bytes)
 * @param checkpointEvery attach a checkpoint document every this many windows; 0 disables
 * @param brokerUrl {@code queen.url}
 * @param token {@code queen.token}, may be null or empty
 * @param requestTimeout the broker request timeout
 * @param memoryBytes the open windows' budget of one task manager ({@code queen.s3.memory-mb} in bytes),
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

    /** {@link WindowOptions#MEMORY_MB}'s default, in bytes. */
    public static final long DEFAULT_MEMORY_BYTES = WindowOptions.MEMORY_MB.defaultValue() * 1024L * 1024L;

    /** Settings with the default memory budget ({@link WindowOptions#MEMORY_MB}). */
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
        QueenSourceOptions.SINK.require(sink);
        WindowRules.validate(maxWindowMs, align);
        if (targetBytes < 1) {
            throw new IllegalArgumentException("the size-cut target (" + WindowOptions.TARGET_MB.key()
                    + ") must be at least 1 byte, got " + targetBytes + ".");
        }
        // 0 is the code's own way to turn checkpoint documents off, below the option's range.
        if (checkpointEvery != 0) {
            WindowOptions.CHECKPOINT_EVERY.require(checkpointEvery);
        }
        if (brokerUrl == null || brokerUrl.isBlank()) {
            throw new IllegalArgumentException("the Queen broker URL is missing; set "
                    + QueenSourceOptions.QUEEN_URL.key() + ", e.g. http://localhost:6632.");
        }
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        if (requestTimeout.isZero() || requestTimeout.isNegative()) {
            throw new IllegalArgumentException("the broker request timeout must be positive, got " + requestTimeout);
        }
        if (memoryBytes < 1) {
            throw new IllegalArgumentException("the open windows' budget (" + WindowOptions.MEMORY_MB.key()
                    + ") must be at least 1 byte, got " + memoryBytes + ".");
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
