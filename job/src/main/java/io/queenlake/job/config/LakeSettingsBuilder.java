package io.queenlake.job.config;

import io.queenlake.format.key.Prefix;
import io.queenlake.format.window.WriterSettings;
import io.queenlake.iceberg.CatalogLink;
import io.queenlake.source.StartMode;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Builds {@link LakeSettings} by name, so two components of one type (region and bucket, the
 * safe guard and the lease TTL) cannot trade places unnoticed, and one left out stops the build
 * instead of reading as zero; only the optional ones (the region, the key pair, the encryption, the
 * token) may stay null.
 */
final class LakeSettingsBuilder {

    private List<String> queues;
    private LakeEndpoint endpoint;
    private String region;
    private String bucket;
    private String accessKey;
    private String secretKey;
    private Prefix prefix;
    private Boolean pathStyle;
    private String sse;
    private String sseKmsKeyId;
    private WriterSettings writer;
    private StartMode start;
    private Long maxWindowMs;
    private String sink;
    private Long safeGuardMs;
    private Long discoveryIntervalMs;
    private Integer fetchConcurrency;
    private Integer commitConcurrency;
    private Integer commitKvWritesPerSecond;
    private Long leaseTtlMs;
    private Integer checkpointEvery;
    private Integer multipartThresholdMb;
    private Integer memoryMb;
    private String instance;
    private String queenUrl;
    private String queenToken;
    private String tenant;
    private CatalogLink catalog;
    private Map<Setting, Origin> origins;

    LakeSettingsBuilder() {}

    LakeSettingsBuilder queues(List<String> queues) {
        this.queues = queues;
        return this;
    }

    LakeSettingsBuilder endpoint(LakeEndpoint endpoint) {
        this.endpoint = endpoint;
        return this;
    }

    LakeSettingsBuilder region(String region) {
        this.region = region;
        return this;
    }

    LakeSettingsBuilder bucket(String bucket) {
        this.bucket = bucket;
        return this;
    }

    LakeSettingsBuilder accessKey(String accessKey) {
        this.accessKey = accessKey;
        return this;
    }

    LakeSettingsBuilder secretKey(String secretKey) {
        this.secretKey = secretKey;
        return this;
    }

    LakeSettingsBuilder prefix(Prefix prefix) {
        this.prefix = prefix;
        return this;
    }

    LakeSettingsBuilder pathStyle(boolean pathStyle) {
        this.pathStyle = pathStyle;
        return this;
    }

    LakeSettingsBuilder sse(String sse) {
        this.sse = sse;
        return this;
    }

    LakeSettingsBuilder sseKmsKeyId(String sseKmsKeyId) {
        this.sseKmsKeyId = sseKmsKeyId;
        return this;
    }

    LakeSettingsBuilder writer(WriterSettings writer) {
        this.writer = writer;
        return this;
    }

    LakeSettingsBuilder start(StartMode start) {
        this.start = start;
        return this;
    }

    LakeSettingsBuilder maxWindowMs(long maxWindowMs) {
        this.maxWindowMs = maxWindowMs;
        return this;
    }

    LakeSettingsBuilder sink(String sink) {
        this.sink = sink;
        return this;
    }

    LakeSettingsBuilder safeGuardMs(long safeGuardMs) {
        this.safeGuardMs = safeGuardMs;
        return this;
    }

    LakeSettingsBuilder discoveryIntervalMs(long discoveryIntervalMs) {
        this.discoveryIntervalMs = discoveryIntervalMs;
        return this;
    }

    LakeSettingsBuilder commitKvWritesPerSecond(int commitKvWritesPerSecond) {
        this.commitKvWritesPerSecond = commitKvWritesPerSecond;
        return this;
    }

    LakeSettingsBuilder commitConcurrency(int commitConcurrency) {
        this.commitConcurrency = commitConcurrency;
        return this;
    }

    LakeSettingsBuilder fetchConcurrency(int fetchConcurrency) {
        this.fetchConcurrency = fetchConcurrency;
        return this;
    }

    LakeSettingsBuilder leaseTtlMs(long leaseTtlMs) {
        this.leaseTtlMs = leaseTtlMs;
        return this;
    }

    LakeSettingsBuilder checkpointEvery(int checkpointEvery) {
        this.checkpointEvery = checkpointEvery;
        return this;
    }

    LakeSettingsBuilder multipartThresholdMb(int multipartThresholdMb) {
        this.multipartThresholdMb = multipartThresholdMb;
        return this;
    }

    LakeSettingsBuilder memoryMb(int memoryMb) {
        this.memoryMb = memoryMb;
        return this;
    }

    LakeSettingsBuilder instance(String instance) {
        this.instance = instance;
        return this;
    }

    LakeSettingsBuilder queenUrl(String queenUrl) {
        this.queenUrl = queenUrl;
        return this;
    }

    LakeSettingsBuilder queenToken(String queenToken) {
        this.queenToken = queenToken;
        return this;
    }

    LakeSettingsBuilder tenant(String tenant) {
        this.tenant = tenant;
        return this;
    }

    LakeSettingsBuilder catalog(CatalogLink catalog) {
        this.catalog = catalog;
        return this;
    }

    LakeSettingsBuilder origins(Map<Setting, Origin> origins) {
        this.origins = origins;
        return this;
    }

    LakeSettings build() {
        return new LakeSettings(set(queues, "queues"), set(endpoint, "endpoint"), region, set(bucket, "bucket"),
                accessKey, secretKey, set(prefix, "prefix"), set(pathStyle, "pathStyle"), sse, sseKmsKeyId,
                set(writer, "writer"), set(start, "start"), set(maxWindowMs, "maxWindowMs"), set(sink, "sink"),
                set(safeGuardMs, "safeGuardMs"), set(discoveryIntervalMs, "discoveryIntervalMs"),
                set(fetchConcurrency, "fetchConcurrency"), set(commitConcurrency, "commitConcurrency"),
                set(commitKvWritesPerSecond, "commitKvWritesPerSecond"), set(leaseTtlMs, "leaseTtlMs"),
                set(checkpointEvery, "checkpointEvery"), set(multipartThresholdMb, "multipartThresholdMb"),
                set(memoryMb, "memoryMb"),
                set(instance, "instance"), set(queenUrl, "queenUrl"), queenToken, set(tenant, "tenant"),
                set(origins, "origins"), java.util.Optional.ofNullable(catalog));
    }

    private static <T> T set(T value, String component) {
        return Objects.requireNonNull(value, () -> "LakeSettings." + component + " was not set");
    }
}
