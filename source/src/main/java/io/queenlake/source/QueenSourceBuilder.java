package io.queenlake.source;

import io.queenlake.broker.client.BrokerUrl;
import io.queenlake.source.enumerator.start.LakeRoot;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Builds a {@link QueenSource}. Defaults and ranges are the reference sink's ({@code QUEEN_S3_*});
 * {@link #build()} ends in one {@code sanityCheck()} whose every refusal names the setting, the
 * value and what is allowed.
 */
public final class QueenSourceBuilder {

    private static final Pattern SINK_NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern UUID =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private String brokerUrl;
    private String token;
    private String tenant = QueenSourceConfig.DEFAULT_TENANT;
    private final List<String> queues = new ArrayList<>();
    private String sink = "default";
    private String instance;
    private StartMode start = StartMode.LATEST;
    private long safeGuardMs = 5_000;
    private long discoveryIntervalMs = 2_000;
    private int fetchConcurrency = 4;
    private long leaseTtlMs = 30_000;
    private long maxWindowMs = 300_000;
    private String lakeRoot;
    private long requestTimeoutMs = 30_000;

    QueenSourceBuilder() {}

    /** One broker node's base URL ({@code QUEEN_URL}). Required. */
    public QueenSourceBuilder brokerUrl(String url) {
        this.brokerUrl = url;
        return this;
    }

    /** Bearer token ({@code QUEEN_TOKEN}); a sink needs a read-write role. */
    public QueenSourceBuilder token(String token) {
        this.token = token;
        return this;
    }

    /** Broker tenant ({@code QUEEN_TENANT}), default {@value QueenSourceConfig#DEFAULT_TENANT}. */
    public QueenSourceBuilder tenant(String tenant) {
        this.tenant = tenant;
        return this;
    }

    /** The queues to mirror ({@code QUEEN_S3_QUEUES}); {@code "*"} alone for every queue. Required. */
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

    public QueenSourceBuilder requestTimeoutMs(long ms) {
        this.requestTimeoutMs = ms;
        return this;
    }

    public QueenSource build() {
        sanityCheck();
        String name = instance == null || instance.isBlank() ? defaultInstance() : instance;
        return new QueenSource(new QueenSourceConfig(BrokerUrl.normalize(brokerUrl), token, tenant, queues, sink,
                name, start, safeGuardMs, discoveryIntervalMs, fetchConcurrency, leaseTtlMs, maxWindowMs,
                lakeRoot, requestTimeoutMs));
    }

    private void sanityCheck() {
        try {
            BrokerUrl.normalize(brokerUrl);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("QUEEN_URL='" + brokerUrl + "' " + e.getMessage()
                    + ": set one broker node's base URL, e.g. http://queen:6632");
        }
        if (queues.isEmpty() || queues.stream().anyMatch(q -> q == null || q.isBlank())) {
            throw new IllegalArgumentException("QUEEN_S3_QUEUES is required but not provided: list the queues to mirror (a,b) or * for all");
        }
        if (queues.contains("*") && queues.size() > 1) {
            throw new IllegalArgumentException("QUEEN_S3_QUEUES=" + String.join(",", queues) + " mixes * with names: use * alone or a list of names");
        }
        if (tenant == null || !UUID.matcher(tenant).matches()) {
            throw new IllegalArgumentException("QUEEN_TENANT='" + tenant + "' is not a UUID: use the broker's tenant id");
        }
        if (sink == null || !SINK_NAME.matcher(sink).matches()) {
            throw new IllegalArgumentException("QUEEN_S3_SINK='" + sink + "' must be 1 to 64 of A-Z a-z 0-9 . _ -");
        }
        inRange("QUEEN_S3_SAFE_GUARD_MS", safeGuardMs, 0, 3_600_000);
        inRange("QUEEN_S3_DISCOVERY_INTERVAL_MS", discoveryIntervalMs, 10, 3_600_000);
        inRange("QUEEN_S3_FETCH_CONCURRENCY", fetchConcurrency, 1, 256);
        inRange("QUEEN_S3_LEASE_TTL_MS", leaseTtlMs, 1_000, 3_600_000);
        inRange("QUEEN_S3_MAX_WINDOW_MS", maxWindowMs, 100, 86_400_000);
        inRange("request timeout (ms)", requestTimeoutMs, 100, 3_600_000);
        if (lakeRoot != null && !lakeRoot.isBlank()) {
            LakeRoot.parse(lakeRoot);
        }
    }

    private static void inRange(String setting, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(setting + "=" + value + " is out of range: allowed " + min + ".." + max);
        }
    }

    private static String defaultInstance() {
        try {
            return "queen-lake@" + InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "queen-lake@unknown-host";
        }
    }
}
