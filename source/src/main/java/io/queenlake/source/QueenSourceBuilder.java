package io.queenlake.source;

import io.queenlake.broker.client.BrokerUrl;
import io.queenlake.format.key.KeyBudget;
import io.queenlake.source.enumerator.start.LakeRoot;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Builds a {@link QueenSource}. Defaults and ranges are {@link QueenSourceOptions}' (the reference
 * sink's); {@link #build()} ends in one {@code sanityCheck()} whose every refusal names the option's
 * Flink key, the value and what is allowed.
 */
@PublicEvolving
public final class QueenSourceBuilder {

    private String brokerUrl;
    private String token;
    private String tenant = QueenSourceOptions.DEFAULT_TENANT;
    private final List<String> queues = new ArrayList<>();
    private String sink = QueenSourceOptions.SINK.defaultValue();
    private String instance;
    private StartMode start = QueenSourceOptions.START.defaultValue();
    private long safeGuardMs = QueenSourceOptions.SAFE_GUARD_MS.defaultValue();
    private long discoveryIntervalMs = QueenSourceOptions.DISCOVERY_INTERVAL_MS.defaultValue();
    private int fetchConcurrency = QueenSourceOptions.FETCH_CONCURRENCY.defaultValue();
    private long leaseTtlMs = QueenSourceOptions.LEASE_TTL_MS.defaultValue();
    private long maxWindowMs = QueenSourceOptions.MAX_WINDOW_MS.defaultValue();
    private String lakeRoot;
    private KeyBudget keyBudget;
    private long requestTimeoutMs = QueenSourceOptions.DEFAULT_REQUEST_TIMEOUT_MS;

    QueenSourceBuilder() {}

    /** One broker node's base URL ({@link QueenSourceOptions#QUEEN_URL}). Required. */
    public QueenSourceBuilder brokerUrl(String url) {
        this.brokerUrl = url;
        return this;
    }

    /** Bearer token ({@link QueenSourceOptions#QUEEN_TOKEN}); a sink needs a read-write role. */
    public QueenSourceBuilder token(String token) {
        this.token = token;
        return this;
    }

    /** Broker tenant ({@link QueenSourceOptions#QUEEN_TENANT}), default {@value QueenSourceOptions#DEFAULT_TENANT}. */
    public QueenSourceBuilder tenant(String tenant) {
        this.tenant = tenant;
        return this;
    }

    /** The queues to mirror ({@link QueenSourceOptions#QUEUES}); {@code "*"} alone for every queue. Required. */
    public QueenSourceBuilder queues(List<String> queues) {
        this.queues.clear();
        this.queues.addAll(queues);
        return this;
    }

    public QueenSourceBuilder queues(String... queues) {
        return queues(List.of(queues));
    }

    public QueenSourceBuilder sink(String sink) {
        this.sink = sink;
        return this;
    }

    /**
     * This job's name in leases ({@link QueenSourceOptions#INSTANCE}); unset draws
     * {@link QueenSourceOptions#defaultInstance()} once, in {@link #build()}.
     */
    public QueenSourceBuilder instance(String instance) {
        this.instance = instance;
        return this;
    }

    public QueenSourceBuilder start(StartMode start) {
        this.start = start;
        return this;
    }

    public QueenSourceBuilder safeGuardMs(long ms) {
        this.safeGuardMs = ms;
        return this;
    }

    public QueenSourceBuilder discoveryIntervalMs(long ms) {
        this.discoveryIntervalMs = ms;
        return this;
    }

    public QueenSourceBuilder fetchConcurrency(int calls) {
        this.fetchConcurrency = calls;
        return this;
    }

    public QueenSourceBuilder leaseTtlMs(long ms) {
        this.leaseTtlMs = ms;
        return this;
    }

    public QueenSourceBuilder maxWindowMs(long ms) {
        this.maxWindowMs = ms;
        return this;
    }

    /** Lake base path with prefix, e.g. {@code s3://lake/queen}, for bucket checkpoints. Optional. */
    public QueenSourceBuilder lakeRoot(String lakeRoot) {
        this.lakeRoot = lakeRoot;
        return this;
    }

    /** The lake's key layout: discovery under {@code *} skips, with a warning, a queue whose keys cannot fit in S3. */
    public QueenSourceBuilder keyBudget(KeyBudget keyBudget) {
        this.keyBudget = keyBudget;
        return this;
    }

    public QueenSourceBuilder requestTimeoutMs(long ms) {
        this.requestTimeoutMs = ms;
        return this;
    }

    /**
     * Takes each {@link QueenSourceOptions} option {@code config} sets, typed or in any spelling its
     * text allows ({@code queen.s3.start: beginning}); a key it leaves unset keeps what this builder
     * holds, so a call after this one still wins, as with Kafka's {@code setProperties}. A bad value
     * is refused naming its key.
     */
    public QueenSourceBuilder configure(ReadableConfig config) {
        QueenSourceOptions.QUEEN_URL.read(config).ifPresent(this::brokerUrl);
        QueenSourceOptions.QUEEN_TOKEN.read(config).ifPresent(this::token);
        QueenSourceOptions.QUEEN_TENANT.read(config).ifPresent(this::tenant);
        QueenSourceOptions.QUEUES.read(config).ifPresent(text -> queues(QueueList.parse(text, IllegalArgumentException::new)));
        QueenSourceOptions.SINK.read(config).ifPresent(this::sink);
        QueenSourceOptions.INSTANCE.read(config).ifPresent(this::instance);
        QueenSourceOptions.START.read(config).ifPresent(this::start);
        QueenSourceOptions.MAX_WINDOW_MS.read(config).ifPresent(this::maxWindowMs);
        QueenSourceOptions.SAFE_GUARD_MS.read(config).ifPresent(this::safeGuardMs);
        QueenSourceOptions.DISCOVERY_INTERVAL_MS.read(config).ifPresent(this::discoveryIntervalMs);
        QueenSourceOptions.FETCH_CONCURRENCY.read(config).ifPresent(this::fetchConcurrency);
        QueenSourceOptions.LEASE_TTL_MS.read(config).ifPresent(this::leaseTtlMs);
        return this;
    }

    public QueenSource build() {
        sanityCheck();
        String name = instance == null || instance.isBlank() ? QueenSourceOptions.defaultInstance() : instance;
        return new QueenSource(new QueenSourceConfig(BrokerUrl.normalize(brokerUrl), token, tenant, queues, sink,
                name, start, safeGuardMs, discoveryIntervalMs, fetchConcurrency, leaseTtlMs, maxWindowMs,
                lakeRoot, requestTimeoutMs, keyBudget));
    }

    private void sanityCheck() {
        try {
            BrokerUrl.normalize(brokerUrl);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(QueenSourceOptions.QUEEN_URL.key() + "='" + brokerUrl + "' "
                    + e.getMessage() + ": set one broker node's base URL, e.g. http://queen:6632.");
        }
        if (queues.isEmpty() || queues.stream().anyMatch(q -> q == null || q.isBlank())) {
            throw new IllegalArgumentException(QueenSourceOptions.QUEUES.key()
                    + " is required but not provided: list the queues to mirror (a,b) or * for all.");
        }
        if (queues.contains("*") && queues.size() > 1) {
            throw new IllegalArgumentException(QueenSourceOptions.QUEUES.key() + "=" + String.join(",", queues)
                    + " mixes * with names: use * alone or a list of names.");
        }
        QueenSourceOptions.QUEEN_TENANT.require(tenant);
        QueenSourceOptions.SINK.require(sink);
        QueenSourceOptions.START.require(start);
        if (instance != null && !instance.isBlank()) {
            QueenSourceOptions.INSTANCE.require(instance);
        }
        QueenSourceOptions.SAFE_GUARD_MS.require(safeGuardMs);
        QueenSourceOptions.DISCOVERY_INTERVAL_MS.require(discoveryIntervalMs);
        QueenSourceOptions.FETCH_CONCURRENCY.require(fetchConcurrency);
        QueenSourceOptions.LEASE_TTL_MS.require(leaseTtlMs);
        QueenSourceOptions.MAX_WINDOW_MS.require(maxWindowMs);
        if (requestTimeoutMs < QueenSourceOptions.MIN_REQUEST_TIMEOUT_MS
                || requestTimeoutMs > QueenSourceOptions.MAX_REQUEST_TIMEOUT_MS) {
            throw new IllegalArgumentException("request timeout (ms)=" + requestTimeoutMs + " is out of range: allowed "
                    + QueenSourceOptions.MIN_REQUEST_TIMEOUT_MS + ".." + QueenSourceOptions.MAX_REQUEST_TIMEOUT_MS);
        }
        if (lakeRoot != null && !lakeRoot.isBlank()) {
            LakeRoot.parse(lakeRoot);
        }
    }
}
