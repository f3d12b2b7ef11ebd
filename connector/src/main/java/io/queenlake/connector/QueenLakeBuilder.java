package io.queenlake.connector;

import io.queenlake.connector.sink.LakeSink;
import io.queenlake.connector.sink.LakeSinkBuilder;
import io.queenlake.connector.sink.LakeSinkOptions;
import io.queenlake.connector.sink.WriterOptions;
import io.queenlake.connector.sink.table.WindowTables;
import io.queenlake.connector.window.WindowOptions;
import io.queenlake.connector.window.WindowSettings;
import io.queenlake.format.key.KeyBudget;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.window.WriterSettings;
import io.queenlake.source.QueenSource;
import io.queenlake.source.QueenSourceBuilder;
import io.queenlake.source.QueenSourceOptions;
import io.queenlake.source.QueueList;
import io.queenlake.source.StartMode;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Builds a {@link QueenLake}: the broker connection (URL, token, tenant, sink name, request
 * timeout) given once and handed to the source, the windows and the sink alike, with the lake's
 * root, layout and window grid. Defaults are the reference sink's ({@link QueenSourceOptions},
 * {@link WindowOptions}, {@link LakeSinkOptions}); every refusal in
 * {@link #build()} is one sentence naming the option's Flink key.
 */
@PublicEvolving
public final class QueenLakeBuilder {

    private String brokerUrl;
    private String token;
    private String tenant = QueenSourceOptions.DEFAULT_TENANT;
    private String sinkName = QueenSourceOptions.SINK.defaultValue();
    private Duration requestTimeout = Duration.ofMillis(QueenSourceOptions.DEFAULT_REQUEST_TIMEOUT_MS);
    private List<String> queues = List.of();
    private String lakeRoot;
    private Prefix prefix = Prefix.DEFAULT;
    private WriterSettings writerSettings = WriterSettings.defaults();
    private long maxWindowMs = QueenSourceOptions.MAX_WINDOW_MS.defaultValue();
    private int checkpointEvery = WindowOptions.CHECKPOINT_EVERY.defaultValue();
    private long memoryBytes = WindowSettings.DEFAULT_MEMORY_BYTES;
    private WindowTables.Factory tables;
    private StartMode start;
    private Consumer<QueenSourceBuilder> sourceOptions = b -> { };
    private Consumer<LakeSinkBuilder> sinkOptions = b -> { };
    private Consumer<QueenSourceBuilder> sourceTuning = b -> { };
    private Consumer<LakeSinkBuilder> sinkTuning = b -> { };

    QueenLakeBuilder() {}

    /** One broker node's base URL ({@link QueenSourceOptions#QUEEN_URL}). Required. */
    public QueenLakeBuilder brokerUrl(String brokerUrl) {
        this.brokerUrl = brokerUrl;
        return this;
    }

    /** Bearer token ({@link QueenSourceOptions#QUEEN_TOKEN}); the lake needs a read-write role. */
    public QueenLakeBuilder token(String token) {
        this.token = token;
        return this;
    }

    /** Broker tenant ({@link QueenSourceOptions#QUEEN_TENANT}), default {@value QueenSourceOptions#DEFAULT_TENANT}. */
    public QueenLakeBuilder tenant(String tenant) {
        this.tenant = tenant;
        return this;
    }

    /** The sink's name in the broker's KV ({@link QueenSourceOptions#SINK}): its pointers, intents and leases. */
    public QueenLakeBuilder sinkName(String sinkName) {
        this.sinkName = sinkName;
        return this;
    }

    /** How long one broker call may take, from the source, the windows and the committer alike. */
    public QueenLakeBuilder requestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
        return this;
    }

    /** The queues to mirror ({@link QueenSourceOptions#QUEUES}); {@code "*"} alone for every queue. Required. */
    public QueenLakeBuilder queues(String... queues) {
        return queues(List.of(queues));
    }

    public QueenLakeBuilder queues(List<String> queues) {
        this.queues = List.copyOf(queues);
        return this;
    }

    /** Where the lake lives: {@code s3://bucket} (the cluster's S3 file system) or {@code file:///dir}. Required. */
    public QueenLakeBuilder lakeRoot(String lakeRoot) {
        this.lakeRoot = lakeRoot;
        return this;
    }

    /** The key prefix under the root ({@link LakeSinkOptions#PREFIX}), default {@code queen}. */
    public QueenLakeBuilder prefix(Prefix prefix) {
        this.prefix = Objects.requireNonNull(prefix, "prefix");
        return this;
    }

    /** Format, codec, layout, alignment and size-cut target of the objects; default JSONL+zstd, merged. */
    public QueenLakeBuilder writerSettings(WriterSettings writerSettings) {
        this.writerSettings = Objects.requireNonNull(writerSettings, "writerSettings");
        return this;
    }

    /** The window size on the broker's clock ({@link QueenSourceOptions#MAX_WINDOW_MS}). */
    public QueenLakeBuilder maxWindowMs(long maxWindowMs) {
        this.maxWindowMs = maxWindowMs;
        return this;
    }

    /** A bucket checkpoint document every this many windows ({@link WindowOptions#CHECKPOINT_EVERY}). */
    public QueenLakeBuilder checkpointEvery(int windows) {
        this.checkpointEvery = windows;
        return this;
    }

    /** What the open windows of one task manager may hold ({@link WindowOptions#MEMORY_MB}, here in bytes). */
    public QueenLakeBuilder memoryBytes(long bytes) {
        this.memoryBytes = bytes;
        return this;
    }

    /** Also append every committed window to its queue's table (Iceberg: {@code queen-lake-iceberg}'s {@code CatalogLink}). */
    public QueenLakeBuilder tables(WindowTables.Factory tables) {
        this.tables = tables;
        return this;
    }

    /**
     * The source's own tuning (start, safe guard, discovery, fetch concurrency, lease TTL, instance),
     * applied after the connection, queues and lake above, which it cannot change.
     */
    public QueenLakeBuilder source(Consumer<QueenSourceBuilder> tuning) {
        this.sourceTuning = Objects.requireNonNull(tuning, "tuning");
        return this;
    }

    /** The sink's own tuning (commit concurrency and KV budget, staging), applied like {@link #source}. */
    public QueenLakeBuilder sink(Consumer<LakeSinkBuilder> tuning) {
        this.sinkTuning = Objects.requireNonNull(tuning, "tuning");
        return this;
    }

    /** Where a queue without a commit pointer starts ({@link QueenSourceOptions#START}). */
    public QueenLakeBuilder start(StartMode start) {
        this.start = Objects.requireNonNull(start, "start");
        return this;
    }

    /**
     * Takes every option {@code config} sets: the connection and the lake's here
     * ({@link QueenSourceOptions}, {@link WindowOptions}, {@link LakeSinkOptions}), and the source's
     * and the sink's own tuning (instance, safe guard, discovery, fetch concurrency, lease TTL, commit
     * concurrency, KV budget), which {@link #source} and {@link #sink} still override. Keys are typed
     * or in any spelling their text allows (a config.yaml, {@code -Dqueen.s3.start=beginning}); a key
     * left unset keeps what this builder holds, so a call after this one still wins, as with Kafka's
     * {@code setProperties}. Every value is checked now, so a bad one is refused here naming its key;
     * the parts read their own tuning from {@code config} again when {@link #build()} builds them.
     */
    public QueenLakeBuilder configure(ReadableConfig config) {
        QueenSourceOptions.QUEEN_URL.read(config).ifPresent(this::brokerUrl);
        QueenSourceOptions.QUEEN_TOKEN.read(config).ifPresent(this::token);
        QueenSourceOptions.QUEEN_TENANT.read(config).ifPresent(this::tenant);
        QueenSourceOptions.SINK.read(config).ifPresent(this::sinkName);
        QueenSourceOptions.QUEUES.read(config)
                .ifPresent(text -> queues(QueueList.parse(text, IllegalArgumentException::new)));
        QueenSourceOptions.START.read(config).ifPresent(this::start);
        QueenSourceOptions.MAX_WINDOW_MS.read(config).ifPresent(this::maxWindowMs);
        WindowOptions.CHECKPOINT_EVERY.read(config).ifPresent(this::checkpointEvery);
        WindowOptions.MEMORY_MB.read(config).ifPresent(mb -> memoryBytes(mb * 1024L * 1024L));
        WriterOptions.prefix(config).ifPresent(this::prefix);
        writerSettings(WriterOptions.writerSettings(config, writerSettings));
        // The parts read their own tuning from the same configuration when they are built; reading it
        // once now on throwaway builders refuses a bad value where it was given.
        QueenSource.builder().configure(config);
        LakeSink.builder().configure(config);
        sourceOptions = sourceOptions.andThen(b -> b.configure(config));
        sinkOptions = sinkOptions.andThen(b -> b.configure(config));
        return this;
    }

    /** The sink is built first: its checks refuse a missing root or a timeout not above zero for all three parts. */
    public QueenLake build() {
        LakeSinkBuilder sinkBuilder = LakeSink.builder();
        sinkOptions.accept(sinkBuilder);
        sinkTuning.accept(sinkBuilder);
        LakeSink sink = sinkBuilder
                .root(lakeRoot)
                .prefix(prefix)
                .writerSettings(writerSettings)
                .sinkName(sinkName)
                .tenant(tenant)
                .brokerUrl(brokerUrl)
                .token(token)
                .requestTimeout(requestTimeout)
                .tables(tables)
                .build();
        QueenSourceBuilder sourceBuilder = QueenSource.builder();
        sourceOptions.accept(sourceBuilder);
        sourceTuning.accept(sourceBuilder);
        if (start != null) {
            sourceBuilder.start(start);
        }
        QueenSource source = sourceBuilder
                .brokerUrl(brokerUrl)
                .token(token)
                .tenant(tenant)
                .sink(sinkName)
                .queues(queues)
                .maxWindowMs(maxWindowMs)
                .lakeRoot(sink.config().root() + "/" + prefix.value())
                .keyBudget(KeyBudget.of(prefix, tenant, writerSettings.layout(), writerSettings.format().extension()))
                .requestTimeoutMs(requestTimeout.toMillis())
                .build();
        WindowSettings windows = new WindowSettings(tenant, sinkName, maxWindowMs, writerSettings.align(),
                writerSettings.targetBytes(), checkpointEvery, brokerUrl, token, requestTimeout, memoryBytes);
        return new QueenLake(source, windows, sink);
    }
}
