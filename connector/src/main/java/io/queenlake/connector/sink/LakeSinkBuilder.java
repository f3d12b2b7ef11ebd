package io.queenlake.connector.sink;

import io.queenlake.broker.client.QueenNames;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.object.Format;
import io.queenlake.format.window.WriterSettings;
import io.queenlake.connector.sink.table.WindowTables;
import io.queenlake.source.QueenSourceOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Builds a {@link LakeSink}. Every input is checked by {@link #sanityCheck()} before a sink
 * exists; each refusal is one sentence naming the setting and what to do.
 */
@PublicEvolving
public final class LakeSinkBuilder {

    private String root;
    private Prefix prefix = Prefix.DEFAULT;
    private WriterSettings writerSettings = WriterSettings.defaults();
    private String sinkName = QueenSourceOptions.SINK.defaultValue();
    private String tenant = QueenSourceOptions.DEFAULT_TENANT;
    private String brokerUrl;
    private String token;
    private Duration requestTimeout = Duration.ofSeconds(30);
    private long stagingBytesInFlight = DEFAULT_STAGING_BYTES_IN_FLIGHT;
    private CrashHook crashHook;
    private WindowTables.Factory tables;
    private String endpoint = "(the S3 file system's s3.endpoint)";
    private Duration stagingRetryFor = DEFAULT_STAGING_RETRY_FOR;
    private int commitConcurrency = LakeSinkOptions.COMMIT_CONCURRENCY.defaultValue();
    private int commitKvWritesPerSecond = LakeSinkOptions.COMMIT_KV_WRITES_PER_SECOND.defaultValue();

    /** Two windows of the default 128 MiB target: uploads overlap encoding without unbounded memory. */
    public static final long DEFAULT_STAGING_BYTES_IN_FLIGHT = 256L << 20;
    /** Long enough to ride out a bucket's brief outage or throttling, short enough that a dead key fails the job. */
    public static final Duration DEFAULT_STAGING_RETRY_FOR = Duration.ofMinutes(5);

    LakeSinkBuilder() {}

    /** The bucket root, {@code s3://<bucket>[/path]} or {@code file:///<dir>} (required). */
    public LakeSinkBuilder root(String root) {
        this.root = root;
        return this;
    }

    /** The S3 endpoint as the log should name it (outage lines); the file system's configuration is what routes requests. */
    public LakeSinkBuilder endpoint(String endpoint) {
        this.endpoint = endpoint;
        return this;
    }

    /**
     * How long the writer retries a failing upload before the job fails with a message naming the
     * queue, the object and the error (default {@link #DEFAULT_STAGING_RETRY_FOR}); meanwhile the
     * other queues' windows commit.
     */
    /** KV write calls a second of the commits, all subtasks together ({@link LakeSinkOptions#COMMIT_KV_WRITES_PER_SECOND}). */
    public LakeSinkBuilder commitKvWritesPerSecond(int calls) {
        this.commitKvWritesPerSecond = calls;
        return this;
    }

    /** Queues whose windows commit at once ({@link LakeSinkOptions#COMMIT_CONCURRENCY}). */
    public LakeSinkBuilder commitConcurrency(int queues) {
        this.commitConcurrency = queues;
        return this;
    }

    public LakeSinkBuilder stagingRetryFor(Duration stagingRetryFor) {
        this.stagingRetryFor = stagingRetryFor;
        return this;
    }

    public LakeSinkBuilder prefix(Prefix prefix) {
        this.prefix = prefix;
        return this;
    }

    public LakeSinkBuilder writerSettings(WriterSettings writerSettings) {
        this.writerSettings = writerSettings;
        return this;
    }

    /** {@link QueenSourceOptions#SINK}: names the KV documents ({@link QueenNames#SINK_NAME}), default {@code default}. */
    public LakeSinkBuilder sinkName(String sinkName) {
        this.sinkName = sinkName;
        return this;
    }

    /** The broker tenant (a UUID) whose queues this sink mirrors. */
    public LakeSinkBuilder tenant(String tenant) {
        this.tenant = tenant;
        return this;
    }

    /** {@link QueenSourceOptions#QUEEN_URL}: the broker whose KV holds the commit pointers (required). */
    public LakeSinkBuilder brokerUrl(String brokerUrl) {
        this.brokerUrl = brokerUrl;
        return this;
    }

    /** {@link QueenSourceOptions#QUEEN_TOKEN}; null or empty sends none. */
    public LakeSinkBuilder token(String token) {
        this.token = token;
        return this;
    }

    public LakeSinkBuilder requestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
        return this;
    }

    /**
     * The payload bytes of the windows each writer may hold not yet encoded and staged (default
     * 256 MiB); the heap of each task manager slot must have room for them and their encoding.
     */
    public LakeSinkBuilder stagingBytesInFlight(long stagingBytesInFlight) {
        this.stagingBytesInFlight = stagingBytesInFlight;
        return this;
    }

    /**
     * Also append every committed window to its queue's table in {@code tables}, after its manifest
     * and before its pointer (Iceberg: {@code queen-lake-iceberg}'s {@code CatalogLink}).
     */
    public LakeSinkBuilder tables(WindowTables.Factory tables) {
        this.tables = tables;
        return this;
    }

    /**
     * Takes each option of the sink that {@code config} sets ({@link LakeSinkOptions}, the window grid's
     * {@link io.queenlake.connector.window.WindowOptions#ALIGN} and
     * {@link io.queenlake.connector.window.WindowOptions#TARGET_MB}, and the broker connection of
     * {@link QueenSourceOptions}), typed or in any spelling its text allows; a key it leaves unset keeps
     * what this builder holds, so a call after this one still wins, as with Kafka's
     * {@code setProperties}. A bad value is refused naming its key.
     */
    public LakeSinkBuilder configure(ReadableConfig config) {
        QueenSourceOptions.QUEEN_URL.read(config).ifPresent(this::brokerUrl);
        QueenSourceOptions.QUEEN_TOKEN.read(config).ifPresent(this::token);
        QueenSourceOptions.QUEEN_TENANT.read(config).ifPresent(this::tenant);
        QueenSourceOptions.SINK.read(config).ifPresent(this::sinkName);
        WriterOptions.prefix(config).ifPresent(this::prefix);
        writerSettings(WriterOptions.writerSettings(config, writerSettings == null ? WriterSettings.defaults() : writerSettings));
        LakeSinkOptions.COMMIT_CONCURRENCY.read(config).ifPresent(this::commitConcurrency);
        LakeSinkOptions.COMMIT_KV_WRITES_PER_SECOND.read(config).ifPresent(this::commitKvWritesPerSecond);
        return this;
    }

    /** Tests only: crash once at {@code point} on the first window numbered {@code fromK} or above. */
    public LakeSinkBuilder crashOnceAt(CrashPoint point, long fromK, String testId) {
        this.crashHook = new CrashHook(point, fromK, testId);
        return this;
    }

    public LakeSink build() {
        return new LakeSink(sanityCheck());
    }

    private LakeSinkConfig sanityCheck() {
        String checkedRoot = checkedRoot();
        if (prefix == null) {
            throw new IllegalArgumentException("the lake sink's key prefix is required but not provided: pass Prefix.DEFAULT for 'queen'.");
        }
        if (writerSettings == null) {
            throw new IllegalArgumentException("the lake sink's writer settings are required but not provided: pass WriterSettings.defaults().");
        }
        if (!QueenNames.isSinkName(sinkName)) {
            throw new IllegalArgumentException("the sink name '" + sinkName + "' is not " + QueenNames.SINK_NAME_RULE
                    + ": fix " + QueenSourceOptions.SINK.key() + ".");
        }
        if (!QueenNames.isTenantId(tenant)) {
            throw new IllegalArgumentException("the tenant '" + tenant + "' is not a UUID (" + QueenNames.TENANT_ID_SHAPE
                    + "): fix " + QueenSourceOptions.QUEEN_TENANT.key() + ".");
        }
        if (brokerUrl == null || brokerUrl.isBlank()) {
            throw new IllegalArgumentException("the broker URL for the commit pointer is required but not provided: set "
                    + QueenSourceOptions.QUEEN_URL.key() + ".");
        }
        URI broker = URI.create(brokerUrl.strip());
        if (!"http".equals(broker.getScheme()) && !"https".equals(broker.getScheme())) {
            throw new IllegalArgumentException("the broker URL '" + brokerUrl + "' is not http(s)://host[:port]: fix "
                    + QueenSourceOptions.QUEEN_URL.key() + ".");
        }
        if (requestTimeout == null || requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("the broker request timeout must be above zero, was " + requestTimeout
                    + ": set a positive duration.");
        }
        if (stagingBytesInFlight <= 0) {
            throw new IllegalArgumentException("the lake sink's staging bytes in flight must be above zero, was "
                    + stagingBytesInFlight + ": set a positive byte count (default " + DEFAULT_STAGING_BYTES_IN_FLIGHT + ").");
        }
        if (tables != null) {
            tables.problemWith(writerSettings.format()).ifPresent(problem -> {
                throw new IllegalArgumentException(problem);
            });
        }
        if (stagingRetryFor == null || stagingRetryFor.isNegative()) {
            throw new IllegalArgumentException("the lake sink's staging retry time must be zero or more, was "
                    + stagingRetryFor + ": set a duration (default " + DEFAULT_STAGING_RETRY_FOR + ").");
        }
        LakeSinkOptions.COMMIT_CONCURRENCY.require(commitConcurrency);
        LakeSinkOptions.COMMIT_KV_WRITES_PER_SECOND.require(commitKvWritesPerSecond);
        return new LakeSinkConfig(checkedRoot, prefix, writerSettings, sinkName, tenant.toLowerCase(java.util.Locale.ROOT),
                brokerUrl.strip(), token, requestTimeout, stagingBytesInFlight, crashHook, endpoint,
                stagingRetryFor, tables, commitConcurrency, commitKvWritesPerSecond);
    }

    private String checkedRoot() {
        if (root == null || root.isBlank()) {
            throw new IllegalArgumentException("the lake root is required but not provided: set it to s3://<bucket> or file:///<dir>.");
        }
        String trimmed = root.strip();
        while (trimmed.endsWith("/") && !trimmed.endsWith(":///") && !trimmed.endsWith("://")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        URI uri;
        try {
            uri = new URI(trimmed);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("the lake root '" + root + "' is not a URI (" + e.getReason()
                    + "): set it to s3://<bucket> or file:///<dir>.");
        }
        if (uri.getScheme() == null) {
            throw new IllegalArgumentException("the lake root '" + root
                    + "' has no scheme: write s3://<bucket> or file:///<dir>.");
        }
        if (uri.getQuery() != null || uri.getFragment() != null) {
            throw new IllegalArgumentException("the lake root '" + root
                    + "' has a query or fragment: drop everything from '?' or '#'.");
        }
        if ((uri.getScheme().startsWith("s3")) && (uri.getAuthority() == null || uri.getAuthority().isEmpty())) {
            throw new IllegalArgumentException("the lake root '" + root + "' names no bucket: write s3://<bucket>.");
        }
        if (uri.getScheme().equals("file") && (uri.getPath() == null || uri.getPath().isEmpty() || uri.getPath().equals("/"))) {
            throw new IllegalArgumentException("the lake root '" + root
                    + "' is the file system root: write file:///<dir> with a directory.");
        }
        if (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed;
    }
}
