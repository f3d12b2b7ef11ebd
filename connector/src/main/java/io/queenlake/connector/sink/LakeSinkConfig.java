package io.queenlake.connector.sink;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.format.object.Format;
import io.queenlake.format.window.WriterSettings;
import io.queenlake.connector.sink.table.WindowTables;
import java.io.Serializable;
import java.time.Duration;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.Path;

/**
 * Everything the sink's writer and committer need, validated by {@link LakeSinkBuilder} and
 * shipped with the job graph: the bucket root, the key prefix, the pinned writer settings, the
 * sink name and tenant, how to reach the broker's KV for the pointer, and an optional crash hook.
 * Kept as plain strings so it serializes without the format's records; the typed views are
 * rebuilt on the task. The token never appears in {@link #toString()}.
 */
@Internal
public final class LakeSinkConfig implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String root;
    private final String prefix;
    private final String format;
    private final String compression;
    private final String layout;
    private final String align;
    private final long targetBytes;
    private final String sinkName;
    private final String tenant;
    private final String brokerUrl;
    private final String token;
    private final Duration requestTimeout;
    private final long stagingBytesInFlight;
    private final CrashHook crashHook;
    private final String endpoint;
    private final Duration stagingRetryFor;
    private final WindowTables.Factory tables;
    private final int commitConcurrency;
    private final int commitKvWritesPerSecond;

    LakeSinkConfig(String root, Prefix prefix, WriterSettings settings, String sinkName, String tenant,
            String brokerUrl, String token, Duration requestTimeout, long stagingBytesInFlight, CrashHook crashHook,
            String endpoint, Duration stagingRetryFor, WindowTables.Factory tables, int commitConcurrency,
            int commitKvWritesPerSecond) {
        this.root = root;
        this.commitConcurrency = commitConcurrency;
        this.commitKvWritesPerSecond = commitKvWritesPerSecond;
        this.tables = tables;
        this.endpoint = endpoint;
        this.stagingRetryFor = stagingRetryFor;
        this.prefix = prefix.value();
        this.format = settings.format().name();
        this.compression = settings.format().codecName();
        this.layout = settings.layout().wireName();
        this.align = settings.align().wireName();
        this.targetBytes = settings.targetBytes();
        this.sinkName = sinkName;
        this.tenant = tenant;
        this.brokerUrl = brokerUrl;
        this.token = token;
        this.requestTimeout = requestTimeout;
        this.stagingBytesInFlight = stagingBytesInFlight;
        this.crashHook = crashHook;
    }

    /** The bucket root without a trailing slash, e.g. {@code s3://lake} or {@code file:///tmp/lake}. */
    public String root() {
        return root;
    }

    public Prefix prefix() {
        return new Prefix(prefix);
    }

    public WriterSettings writerSettings() {
        return new WriterSettings(Format.of(format, compression), Layout.parse(layout), Align.parse(align),
                targetBytes);
    }

    public String sinkName() {
        return sinkName;
    }

    public String tenant() {
        return tenant;
    }

    public String brokerUrl() {
        return brokerUrl;
    }

    /** The S3 endpoint, for log lines only (the file system's configuration decides where requests go). */
    public String endpoint() {
        return endpoint;
    }

    /**
     * How many payload bytes of windows a writer may hold that are not encoded and staged yet; a
     * window arriving above it waits for earlier ones (a single larger window goes alone).
     */
    public long stagingBytesInFlight() {
        return stagingBytesInFlight;
    }

    /** How long the writer retries a failing upload of a window before it fails the job. */
    /** Queues whose windows the committer commits at once. */
    public int commitConcurrency() {
        return commitConcurrency;
    }

    /** KV write calls a second of the commits, all subtasks together. */
    public int commitKvWritesPerSecond() {
        return commitKvWritesPerSecond;
    }

    public Duration stagingRetryFor() {
        return stagingRetryFor;
    }

    /** The tables every committed window is also appended to, if any. */
    public Optional<WindowTables.Factory> tables() {
        return Optional.ofNullable(tables);
    }

    public Optional<CrashHook> crashHook() {
        return Optional.ofNullable(crashHook);
    }

    /** Where an object key lives under the root. */
    public Path pathOf(String key) {
        return new Path(root + "/" + key);
    }

    /** A client for the pointer's KV, in the sink's tenant (no tenant header for the default tenant). */
    public QueenClient newClient() {
        return HttpQueenClient.builder()
                .baseUrl(brokerUrl)
                .token(token)
                .tenant(tenant.equals(ManifestJson.DEFAULT_TENANT) ? null : tenant)
                .requestTimeout(requestTimeout)
                .build();
    }

    /** Throws the hook's crash if one is armed for this point and window. */
    public void crashIfArmed(CrashPoint point, long k) {
        if (crashHook != null) {
            crashHook.at(point, k);
        }
    }

    @Override
    public String toString() {
        return "LakeSinkConfig{root=" + root + ", prefix=" + prefix + ", writer=" + format + "+" + compression + " "
                + layout + " align=" + align + " target=" + targetBytes + "B, sink=" + sinkName + ", tenant=" + tenant
                + ", stagingInFlight=" + stagingBytesInFlight + "B, broker=" + brokerUrl + ", token=" + (token == null || token.isEmpty() ? "none" : "set")
                + (crashHook == null ? "" : ", crashHook=" + crashHook)
                + (tables == null ? "" : ", tables=" + tables) + "}";
    }
}
