package io.queenlake.job.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.iceberg.CatalogLink;
import io.queenlake.source.StartMode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class SettingsLoaderTest {

    private static final Map<String, String> REQUIRED = Map.of("QUEEN_S3_QUEUES", "orders", "QUEEN_S3_BUCKET", "lake");

    /** A value other than the default for each setting, and what LakeSettings must hold for it. */
    private record Sample(String raw, Function<LakeSettings, Object> read, Object expected) {}

    private static final Map<Setting, Sample> SAMPLES = new HashMap<>();

    static {
        SAMPLES.put(Setting.QUEUES, new Sample("a,b", LakeSettings::queues, List.of("a", "b")));
        SAMPLES.put(Setting.ENDPOINT, new Sample("http://minio:9000", s -> s.endpoint().uri(),
                Optional.of(URI.create("http://minio:9000"))));
        SAMPLES.put(Setting.REGION, new Sample("eu-west-1", LakeSettings::region, "eu-west-1"));
        SAMPLES.put(Setting.BUCKET, new Sample("my-lake.eu", LakeSettings::bucket, "my-lake.eu"));
        SAMPLES.put(Setting.ACCESS_KEY, new Sample("AKIAEXAMPLE", LakeSettings::accessKey, "AKIAEXAMPLE"));
        SAMPLES.put(Setting.SECRET_KEY, new Sample("s3cr3t-value", LakeSettings::secretKey, "s3cr3t-value"));
        SAMPLES.put(Setting.PREFIX, new Sample("/data/queen/", s -> s.prefix().value(), "data/queen"));
        SAMPLES.put(Setting.PATH_STYLE, new Sample("true", LakeSettings::pathStyle, true));
        SAMPLES.put(Setting.SSE, new Sample("kms", LakeSettings::sse, "aws:kms"));
        SAMPLES.put(Setting.SSE_KMS_KEY_ID, new Sample("key-1", LakeSettings::sseKmsKeyId, "key-1"));
        SAMPLES.put(Setting.FORMAT, new Sample("parquet", s -> s.writer().format().name(), "parquet"));
        SAMPLES.put(Setting.COMPRESSION, new Sample("gz", s -> s.writer().format().codecName(), "gzip"));
        SAMPLES.put(Setting.PARQUET_CODEC, new Sample("snappy", s -> s.writer().format().codecName(), "snappy"));
        SAMPLES.put(Setting.LAYOUT, new Sample("per-partition", s -> s.writer().layout(), Layout.PER_PARTITION));
        SAMPLES.put(Setting.ALIGN, new Sample("day", s -> s.writer().align(), Align.DAY));
        SAMPLES.put(Setting.START, new Sample("beginning", LakeSettings::start, StartMode.EARLIEST));
        SAMPLES.put(Setting.TARGET_MB, new Sample("5120", s -> s.writer().targetBytes(), 5120L * 1024 * 1024));
        SAMPLES.put(Setting.MEMORY_MB, new Sample("1048576", LakeSettings::memoryMb, 1_048_576));
        SAMPLES.put(Setting.MAX_WINDOW_MS, new Sample("60000", LakeSettings::maxWindowMs, 60_000L));
        SAMPLES.put(Setting.SINK, new Sample("eu.lake_2", LakeSettings::sink, "eu.lake_2"));
        SAMPLES.put(Setting.SAFE_GUARD_MS, new Sample("0", LakeSettings::safeGuardMs, 0L));
        SAMPLES.put(Setting.DISCOVERY_INTERVAL_MS, new Sample("10", LakeSettings::discoveryIntervalMs, 10L));
        SAMPLES.put(Setting.FETCH_CONCURRENCY, new Sample("256", LakeSettings::fetchConcurrency, 256));
        SAMPLES.put(Setting.COMMIT_CONCURRENCY, new Sample("1024", LakeSettings::commitConcurrency, 1024));
        SAMPLES.put(Setting.COMMIT_KV_WRITES_PER_SECOND, new Sample("100", LakeSettings::commitKvWritesPerSecond, 100));
        SAMPLES.put(Setting.LEASE_TTL_MS, new Sample("1000", LakeSettings::leaseTtlMs, 1000L));
        SAMPLES.put(Setting.CHECKPOINT_EVERY, new Sample("100000", LakeSettings::checkpointEvery, 100_000));
        SAMPLES.put(Setting.MULTIPART_THRESHOLD_MB, new Sample("5", LakeSettings::multipartThresholdMb, 5));
        SAMPLES.put(Setting.INSTANCE, new Sample("lake-a", LakeSettings::instance, "lake-a"));
        SAMPLES.put(Setting.QUEEN_URL, new Sample("https://queen.example:6632/", LakeSettings::queenUrl,
                "https://queen.example:6632"));
        SAMPLES.put(Setting.QUEEN_TOKEN, new Sample("tok.en-1", LakeSettings::queenToken, "tok.en-1"));
        SAMPLES.put(Setting.ICEBERG_CATALOG, new Sample("jdbc", s -> s.catalog().map(CatalogLink::type), Optional.of("jdbc")));
        SAMPLES.put(Setting.ICEBERG_URI, new Sample("https://polaris.example/api/catalog",
                s -> s.catalog().get().properties().get("uri"), "https://polaris.example/api/catalog"));
        SAMPLES.put(Setting.ICEBERG_WAREHOUSE, new Sample("s3://lake/iceberg",
                s -> s.catalog().get().properties().get("warehouse"), "s3://lake/iceberg"));
        SAMPLES.put(Setting.ICEBERG_NAMESPACE, new Sample("lake.eu", s -> s.catalog().get().namespace(), "lake.eu"));
        SAMPLES.put(Setting.ICEBERG_TOKEN, new Sample("t0ken", s -> s.catalog().get().properties().get("token"), "t0ken"));
        SAMPLES.put(Setting.ICEBERG_CREDENTIAL, new Sample("client:s3cret",
                s -> s.catalog().get().properties().get("credential"), "client:s3cret"));
        SAMPLES.put(Setting.ICEBERG_USER, new Sample("lake", s -> s.catalog().get().properties().get("jdbc.user"), "lake"));
        SAMPLES.put(Setting.ICEBERG_PASSWORD, new Sample("pw", s -> s.catalog().get().properties().get("jdbc.password"),
                "pw"));
        SAMPLES.put(Setting.ICEBERG_SNAPSHOT_MAX_AGE_MS, new Sample("60000",
                s -> s.catalog().get().upkeep().snapshotMaxAgeMs(), 60_000L));
        // Above the default maximum (100), which then follows it: a setup from before that default still starts.
        SAMPLES.put(Setting.ICEBERG_SNAPSHOTS_KEPT, new Sample("1000", s -> s.catalog().get().upkeep().snapshotsKept(),
                1000));
        SAMPLES.put(Setting.ICEBERG_SNAPSHOTS_MAX, new Sample("50", s -> s.catalog().get().upkeep().snapshotsMax(), 50));
        SAMPLES.put(Setting.ICEBERG_METADATA_VERSIONS_KEPT, new Sample("3",
                s -> s.catalog().get().upkeep().metadataVersionsKept(), 3));
        SAMPLES.put(Setting.ICEBERG_MANIFESTS_MERGE_AT, new Sample("2",
                s -> s.catalog().get().upkeep().manifestsMergeAt(), 2));
        SAMPLES.put(Setting.ICEBERG_EXPIRE_EVERY_MS, new Sample("0", s -> s.catalog().get().upkeep().expireEveryMs(), 0L));
        SAMPLES.put(Setting.ICEBERG_ORPHAN_FILES_OLDER_THAN_MS, new Sample("0",
                s -> s.catalog().get().upkeep().orphanFilesOlderThanMs(), 0L));
        SAMPLES.put(Setting.ICEBERG_BACKFILL_WINDOWS, new Sample("720", s -> s.catalog().get().backfillWindows(), 720L));
        SAMPLES.put(Setting.QUEEN_TENANT, new Sample("0A1B2C3D-0000-4000-8000-00000000AAAA", LakeSettings::tenant,
                "0a1b2c3d-0000-4000-8000-00000000aaaa"));
    }

    /** Settings a sample needs beside it (a pair, a format, an alignment), from the environment. */
    private static Map<String, String> companions(Setting setting) {
        Map<String, String> env = new HashMap<>(REQUIRED);
        switch (setting) {
            case ACCESS_KEY -> env.put("QUEEN_S3_SECRET_KEY", "x");
            case SECRET_KEY -> env.put("QUEEN_S3_ACCESS_KEY", "x");
            case SSE_KMS_KEY_ID -> env.put("QUEEN_S3_SSE", "aws:kms");
            case PARQUET_CODEC -> env.put("QUEEN_S3_FORMAT", "parquet");
            case ICEBERG_CATALOG, ICEBERG_USER, ICEBERG_PASSWORD -> env.putAll(Map.of("QUEEN_S3_FORMAT", "parquet",
                    "QUEEN_LAKE_ICEBERG_CATALOG", "jdbc", "QUEEN_LAKE_ICEBERG_URI", "jdbc:sqlite:/tmp/catalog.db",
                    "QUEEN_LAKE_ICEBERG_WAREHOUSE", "s3://lake/iceberg"));
            case ICEBERG_URI, ICEBERG_WAREHOUSE, ICEBERG_NAMESPACE, ICEBERG_TOKEN, ICEBERG_CREDENTIAL,
                    ICEBERG_SNAPSHOT_MAX_AGE_MS, ICEBERG_SNAPSHOTS_KEPT, ICEBERG_SNAPSHOTS_MAX, ICEBERG_METADATA_VERSIONS_KEPT,
                    ICEBERG_MANIFESTS_MERGE_AT, ICEBERG_EXPIRE_EVERY_MS, ICEBERG_ORPHAN_FILES_OLDER_THAN_MS,
                    ICEBERG_BACKFILL_WINDOWS -> env.putAll(Map.of(
                    "QUEEN_S3_FORMAT", "parquet", "QUEEN_LAKE_ICEBERG_CATALOG", "rest",
                    "QUEEN_LAKE_ICEBERG_URI", "http://127.0.0.1:8181"));
            default -> { }
        }
        return env;
    }

    private static LakeSettings load(Map<String, String> env, Map<String, String> flink, String... args) {
        return SettingsLoader.load(env, args, Configuration.fromMap(flink));
    }

    @Test
    void everySettingHasASample() {
        assertThat(SAMPLES).containsOnlyKeys(Setting.values());
    }

    @ParameterizedTest
    @EnumSource(Setting.class)
    void everySettingIsReadFromTheEnvironment(Setting setting) {
        Sample sample = SAMPLES.get(setting);
        Map<String, String> env = companions(setting);
        env.put(setting.envName(), sample.raw());
        LakeSettings settings = load(env, Map.of());
        assertThat(sample.read().apply(settings)).isEqualTo(sample.expected());
        assertThat(settings.originOf(setting)).isEqualTo(Origin.ENVIRONMENT);
    }

    @ParameterizedTest
    @EnumSource(Setting.class)
    void everySettingIsReadFromItsShortArgument(Setting setting) {
        Sample sample = SAMPLES.get(setting);
        LakeSettings settings = load(companions(setting), Map.of(), "--" + setting.argName(), sample.raw());
        assertThat(sample.read().apply(settings)).isEqualTo(sample.expected());
        assertThat(settings.originOf(setting)).isEqualTo(Origin.ARGUMENT);
    }

    @ParameterizedTest
    @EnumSource(Setting.class)
    void everySettingIsReadFromItsVariableAsAnArgumentWithAnEqualsSign(Setting setting) {
        Sample sample = SAMPLES.get(setting);
        LakeSettings settings = load(companions(setting), Map.of(), "--" + setting.envName() + "=" + sample.raw());
        assertThat(sample.read().apply(settings)).isEqualTo(sample.expected());
        assertThat(settings.originOf(setting)).isEqualTo(Origin.ARGUMENT);
    }

    @ParameterizedTest
    @EnumSource(Setting.class)
    void everySettingIsReadFromItsFlinkKey(Setting setting) {
        Sample sample = SAMPLES.get(setting);
        LakeSettings settings = load(companions(setting), Map.of(setting.flinkKey(), sample.raw()));
        assertThat(sample.read().apply(settings)).isEqualTo(sample.expected());
        assertThat(settings.originOf(setting)).isEqualTo(Origin.FLINK_CONFIGURATION);
    }

    @Test
    void theThreeSpellingsFollowOnePattern() {
        assertThat(Setting.MAX_WINDOW_MS.argName()).isEqualTo("max-window-ms");
        assertThat(Setting.MAX_WINDOW_MS.flinkKey()).isEqualTo("queen.s3.max-window-ms");
        assertThat(Setting.QUEEN_URL.argName()).isEqualTo("queen-url");
        assertThat(Setting.QUEEN_URL.flinkKey()).isEqualTo("queen.url");
        assertThat(Setting.QUEUES.flinkKey()).isEqualTo("queen.s3.queues");
    }

    /**
     * Each option's Flink key is the one the job derived from the variable before the options were
     * Flink's own (QUEEN_S3_X is queen.s3.x, QUEEN_LAKE_X queen.lake.x, QUEEN_X queen.x, lower case,
     * '_' as '-'), so every Flink configuration written for an earlier release still applies.
     */
    @ParameterizedTest
    @EnumSource(Setting.class)
    void everyFlinkKeyIsTheOneEarlierReleasesDerivedFromTheVariable(Setting setting) {
        String env = setting.envName();
        String tail = env.startsWith("QUEEN_S3_") ? "s3." + env.substring("QUEEN_S3_".length())
                : env.startsWith("QUEEN_LAKE_") ? "lake." + env.substring("QUEEN_LAKE_".length())
                : env.substring("QUEEN_".length());
        assertThat(setting.flinkKey()).isEqualTo("queen." + tail.toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        assertThat(setting.definition().option().key()).isEqualTo(setting.flinkKey());
    }

    @Test
    void theReferenceDefaultsApplyWhenNothingIsSet() {
        LakeSettings s = load(REQUIRED, Map.of());
        assertThat(s.endpoint().uri()).isEmpty();
        assertThat(s.prefix().value()).isEqualTo("queen");
        assertThat(s.pathStyle()).isFalse();
        assertThat(s.sse()).isNull();
        assertThat(s.writer().format().name()).isEqualTo("jsonl");
        assertThat(s.writer().format().codecName()).isEqualTo("zstd");
        assertThat(s.writer().layout()).isEqualTo(Layout.MERGED);
        assertThat(s.writer().align()).isEqualTo(Align.HOUR);
        assertThat(s.start()).isEqualTo(StartMode.LATEST);
        assertThat(s.writer().targetBytes()).isEqualTo(128L * 1024 * 1024);
        assertThat(s.maxWindowMs()).isEqualTo(300_000);
        assertThat(s.sink()).isEqualTo("default");
        assertThat(s.safeGuardMs()).isEqualTo(5_000);
        assertThat(s.discoveryIntervalMs()).isEqualTo(2_000);
        assertThat(s.fetchConcurrency()).isEqualTo(4);
        assertThat(s.leaseTtlMs()).isEqualTo(30_000);
        assertThat(s.checkpointEvery()).isEqualTo(20);
        assertThat(s.multipartThresholdMb()).isEqualTo(64);
        assertThat(s.memoryMb()).isEqualTo(512);
        assertThat(s.windowSettings().memoryBytes()).isEqualTo(512L * 1024 * 1024);
        assertThat(s.instance()).matches("queen-lake@.+/[0-9a-f]{8}");
        assertThat(s.source().config().instance()).as("drawn once, when the job is built").isEqualTo(s.instance());
        assertThat(load(REQUIRED, Map.of()).instance()).as("another job").isNotEqualTo(s.instance());
        assertThat(s.queenUrl()).isEqualTo("http://localhost:6632");
        assertThat(s.queenToken()).isNull();
        assertThat(s.tenant()).isEqualTo("00000000-0000-0000-0000-000000000001");
        assertThat(s.originOf(Setting.SINK)).isEqualTo(Origin.DEFAULT);
    }

    @Test
    void anArgumentBeatsTheFlinkKeyWhichBeatsTheEnvironmentWhichBeatsTheDefault() {
        Map<String, String> env = new HashMap<>(REQUIRED);
        env.put("QUEEN_S3_SINK", "from-env");
        env.put("QUEEN_S3_PREFIX", "env-prefix");
        env.put("QUEEN_S3_LAYOUT", "per-partition");
        Map<String, String> flink = Map.of("queen.s3.sink", "from-flink", "queen.s3.prefix", "flink-prefix");
        LakeSettings s = load(env, flink, "--sink", "from-arg");
        assertThat(s.sink()).isEqualTo("from-arg");
        assertThat(s.prefix().value()).isEqualTo("flink-prefix");
        assertThat(s.writer().layout()).isEqualTo(Layout.PER_PARTITION);
        assertThat(s.writer().align()).isEqualTo(Align.HOUR);
        assertThat(List.of(s.originOf(Setting.SINK), s.originOf(Setting.PREFIX), s.originOf(Setting.LAYOUT),
                s.originOf(Setting.ALIGN))).containsExactly(Origin.ARGUMENT, Origin.FLINK_CONFIGURATION,
                Origin.ENVIRONMENT, Origin.DEFAULT);
    }

    @Test
    void aBlankValueCountsAsUnset() {
        Map<String, String> env = new HashMap<>(REQUIRED);
        env.put("QUEEN_S3_SINK", "from-env");
        env.put("QUEEN_S3_SSE", "");
        LakeSettings s = load(env, Map.of("queen.s3.sink", " "));
        assertThat(s.sink()).isEqualTo("from-env");
        assertThat(s.sse()).isNull();
    }

    @Test
    void queuesAcceptAStarOrAJsonArray() {
        assertThat(load(Map.of("QUEEN_S3_BUCKET", "lake"), Map.of(), "--queues", "*").queues()).containsExactly("*");
        assertThat(load(Map.of("QUEEN_S3_BUCKET", "lake"), Map.of(), "--queues", "[\"a,b\", \"été\"]").queues())
                .containsExactly("a,b", "été");
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                refusal("a missing queue list", Map.of("QUEEN_S3_BUCKET", "lake"), Map.of(), new String[0],
                        "QUEEN_S3_QUEUES is required but not set: pass --queues"),
                refusal("a missing bucket", Map.of("QUEEN_S3_QUEUES", "orders"), Map.of(), new String[0],
                        "QUEEN_S3_BUCKET is required but not set"),
                refusal("a number out of range", REQUIRED, Map.of(), args("--target-mb", "0"),
                        "QUEEN_S3_TARGET_MB='0' (job argument --target-mb) is out of range: allowed 1..5120."),
                refusal("a memory budget above the range", with("QUEEN_S3_MEMORY_MB", "1048577"), Map.of(), args(),
                        "QUEEN_S3_MEMORY_MB='1048577' (environment) is out of range: allowed 1..1048576."),
                refusal("a number that is no number", REQUIRED, Map.of("queen.s3.lease-ttl-ms", "30s"), args(),
                        "QUEEN_S3_LEASE_TTL_MS='30s' (Flink configuration queen.s3.lease-ttl-ms) is not a whole"
                                + " number: allowed 1000..3600000."),
                refusal("a fetch concurrency above the range", with("QUEEN_S3_FETCH_CONCURRENCY", "257"), Map.of(),
                        args(), "QUEEN_S3_FETCH_CONCURRENCY='257' (environment) is out of range: allowed 1..256."),
                refusal("an unknown format", REQUIRED, Map.of(), args("--format", "avro"),
                        "QUEEN_S3_FORMAT='avro' (job argument --format) is not an accepted value: allowed jsonl (or"
                                + " json, ndjson) or parquet."),
                refusal("an unknown sse", with("QUEEN_S3_SSE", "DES"), Map.of(), args(),
                        "QUEEN_S3_SSE='DES' (environment) is not an accepted value: allowed AES256 or aws:kms"),
                refusal("an unknown start", REQUIRED, Map.of(), args("--start", "yesterday"),
                        "QUEEN_S3_START='yesterday' (job argument --start) is not an accepted value"),
                refusal("a bad boolean", REQUIRED, Map.of(), args("--path-style", "maybe"),
                        "QUEEN_S3_PATH_STYLE='maybe' (job argument --path-style) is not a boolean: allowed true or false."),
                refusal("a window that does not divide the hour", REQUIRED, Map.of(), args("--max-window-ms", "420000"),
                        "QUEEN_S3_MAX_WINDOW_MS=420000 does not divide one hour (3600000 ms)"),
                refusal("a window that does not divide the day", with("QUEEN_S3_ALIGN", "day"), Map.of(),
                        args("--max-window-ms", "7200001"), "QUEEN_S3_MAX_WINDOW_MS=7200001 does not divide one day"),
                refusal("a prefix with a dot-dot segment", REQUIRED, Map.of(), args("--prefix", "a/../b"),
                        "QUEEN_S3_PREFIX='a/../b' (job argument --prefix) is refused: the key prefix 'a/../b' has a"
                                + " '..' segment"),
                refusal("an empty prefix", REQUIRED, Map.of(), args("--prefix", "///"),
                        "QUEEN_S3_PREFIX='///' (job argument --prefix) is refused: the key prefix '///' is empty"),
                refusal("an endpoint with a path", REQUIRED, Map.of(), args("--endpoint", "http://minio:9000/lake"),
                        "QUEEN_S3_ENDPOINT='http://minio:9000/lake' (job argument --endpoint) has a path (/lake; put"
                                + " the bucket in QUEEN_S3_BUCKET"),
                refusal("an endpoint that is no URL", REQUIRED, Map.of(), args("--endpoint", "minio:9000"),
                        "QUEEN_S3_ENDPOINT='minio:9000' (job argument --endpoint) is not an http(s) URL with a host"),
                refusal("a bucket with capitals", with("QUEEN_S3_BUCKET", "Lake"), Map.of(), args(),
                        "QUEEN_S3_BUCKET='Lake' (environment) is not valid: allowed 3 to 63 of a-z 0-9 . -"),
                refusal("partitions in the environment", with("QUEEN_S3_PARTITIONS", "p1"), Map.of(), args(),
                        "QUEEN_S3_PARTITIONS (environment) is not accepted: queen-lake mirrors every partition"
                                + " discovery finds"),
                refusal("partitions as an argument", REQUIRED, Map.of(), args("--partitions", "p1"),
                        "QUEEN_S3_PARTITIONS (job argument --partitions) is not accepted"),
                refusal("partitions as a Flink key", REQUIRED, Map.of("queen.s3.partitions", "p1"), args(),
                        "QUEEN_S3_PARTITIONS (Flink configuration queen.s3.partitions) is not accepted"),
                refusal("an access key without its secret", with("QUEEN_S3_ACCESS_KEY", "AK"), Map.of(), args(),
                        "QUEEN_S3_ACCESS_KEY is set (environment) but QUEEN_S3_SECRET_KEY is not: set both"),
                refusal("a secret without its access key", REQUIRED, Map.of(), args("--secret-key", "hush"),
                        "QUEEN_S3_SECRET_KEY is set (job argument --secret-key) but QUEEN_S3_ACCESS_KEY is not"),
                refusal("an unknown argument", REQUIRED, Map.of(), args("--queus", "orders"),
                        "the job argument --queus is not a queen-lake setting"),
                refusal("an argument without a value", REQUIRED, Map.of(), args("--bucket"),
                        "the job argument --bucket has no value"),
                refusal("a positional argument", REQUIRED, Map.of(), args("orders"),
                        "the job argument 'orders' is not a --name value pair"),
                refusal("an argument given twice", REQUIRED, Map.of(), args("--sink", "a", "--QUEEN_S3_SINK", "b"),
                        "the job arguments give QUEEN_S3_SINK twice"),
                refusal("an unknown queen key", REQUIRED, Map.of("queen.s3.queus", "orders"), args(),
                        "the Flink configuration key queen.s3.queus is not a queen-lake setting"),
                refusal("kms over plain http", REQUIRED, Map.of(),
                        args("--endpoint", "http://127.0.0.1:9000", "--sse", "aws:kms"),
                        "QUEEN_S3_SSE='aws:kms' (job argument --sse) needs HTTPS, and QUEEN_S3_ENDPOINT is"
                                + " http://127.0.0.1:9000"),
                refusal("a KMS key id without kms", with("QUEEN_S3_SSE_KMS_KEY_ID", "k"), Map.of(), args(),
                        "QUEEN_S3_SSE_KMS_KEY_ID='k' (environment) needs QUEEN_S3_SSE=aws:kms (it is unset)"),
                refusal("a JSONL compression with parquet", with("QUEEN_S3_FORMAT", "parquet"), Map.of(),
                        args("--compression", "gzip"), "QUEEN_S3_COMPRESSION='gzip' (job argument --compression) does"
                                + " not apply to QUEEN_S3_FORMAT=parquet: set QUEEN_S3_PARQUET_CODEC"),
                refusal("a queue list mixing the star", REQUIRED, Map.of(), args("--queues", "*,orders"),
                        "QUEEN_S3_QUEUES='*,orders' (job argument --queues) mixes * with names"),
                refusal("a queue list with an empty name", REQUIRED, Map.of(), args("--queues", "a,,b"),
                        "QUEEN_S3_QUEUES='a,,b' (job argument --queues) names an empty queue"),
                refusal("a broker URL without a scheme", REQUIRED, Map.of(), args("--queen-url", "queen:6632"),
                        "QUEEN_URL='queen:6632' (job argument --queen-url) must start with http:// or https://"),
                refusal("a tenant that is no UUID", with("QUEEN_TENANT", "acme"), Map.of(), args(),
                        "QUEEN_TENANT='acme' (environment) is not valid: allowed a UUID."),
                refusal("a token with a space", REQUIRED, Map.of(), args("--queen-token", "Bearer abc"),
                        "QUEEN_TOKEN (job argument --queen-token) contains spaces or control characters"),
                refusal("a secret out of its pattern never echoes it", REQUIRED, Map.of(),
                        args("--access-key", "AK", "--secret-key", "hush", "--checkpoint-every", "0"),
                        "QUEEN_S3_CHECKPOINT_EVERY='0' (job argument --checkpoint-every) is out of range: allowed"
                                + " 1..100000."),
                refusal("SSE on a local folder", with("QUEEN_S3_SSE", "AES256"), Map.of(),
                        args("--endpoint", "file:///tmp/lake"), "QUEEN_S3_SSE='AES256' (environment) cannot apply to"
                                + " the local folder file:///tmp/lake"),
                refusal("an Iceberg catalog for JSONL", REQUIRED, Map.of(),
                        args("--iceberg-catalog", "rest", "--iceberg-uri", "http://127.0.0.1:8181"),
                        "QUEEN_LAKE_ICEBERG_CATALOG=rest (job argument --iceberg-catalog) registers the lake's Parquet"
                                + " objects as the tables' data files, so it needs QUEEN_S3_FORMAT=parquet (it is jsonl)"),
                refusal("an Iceberg catalog without its URI", REQUIRED, Map.of(),
                        args("--format", "parquet", "--iceberg-catalog", "jdbc"),
                        "QUEEN_LAKE_ICEBERG_URI is required with QUEEN_LAKE_ICEBERG_CATALOG=jdbc"),
                refusal("a REST catalog at a JDBC URL", REQUIRED, Map.of(),
                        args("--format", "parquet", "--iceberg-catalog", "rest", "--iceberg-uri", "jdbc:sqlite:/x.db"),
                        "QUEEN_LAKE_ICEBERG_URI='jdbc:sqlite:/x.db' (job argument --iceberg-uri) is not an http:// or"
                                + " https:// URL"),
                refusal("a JDBC catalog without its warehouse", REQUIRED, Map.of(),
                        args("--format", "parquet", "--iceberg-catalog", "jdbc", "--iceberg-uri", "jdbc:sqlite:/x.db"),
                        "QUEEN_LAKE_ICEBERG_WAREHOUSE is required with QUEEN_LAKE_ICEBERG_CATALOG=jdbc"),
                refusal("a REST token for a JDBC catalog", with("QUEEN_LAKE_ICEBERG_TOKEN", "hush"), Map.of(),
                        args("--format", "parquet", "--iceberg-catalog", "jdbc", "--iceberg-uri", "jdbc:sqlite:/x.db",
                                "--iceberg-warehouse", "s3://b/iceberg"),
                        "QUEEN_LAKE_ICEBERG_TOKEN (environment) applies to the rest catalog, not to"
                                + " QUEEN_LAKE_ICEBERG_CATALOG=jdbc"),
                refusal("both a token and client credentials", with("QUEEN_LAKE_ICEBERG_TOKEN", "hush"), Map.of(),
                        args("--format", "parquet", "--iceberg-catalog", "rest", "--iceberg-uri", "http://c:8181",
                                "--iceberg-credential", "id:hush"),
                        "QUEEN_LAKE_ICEBERG_TOKEN and QUEEN_LAKE_ICEBERG_CREDENTIAL are both set"),
                refusal("a catalog setting without a catalog", with("QUEEN_LAKE_ICEBERG_URI", "http://c:8181"), Map.of(),
                        args(), "QUEEN_LAKE_ICEBERG_URI (environment) has no effect while QUEEN_LAKE_ICEBERG_CATALOG is"
                                + " none"));
    }

    private static Arguments refusal(String name, Map<String, String> env, Map<String, String> flink, String[] args,
            String message) {
        return Arguments.of(name, env, flink, args, message);
    }

    private static String[] args(String... args) {
        return args;
    }

    private static Map<String, String> with(String key, String value) {
        Map<String, String> env = new HashMap<>(REQUIRED);
        env.put(key, value);
        return env;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void eachRefusalIsOneLineNamingTheSettingTheValueAndWhatIsAllowed(String name, Map<String, String> env,
            Map<String, String> flink, String[] args, String message) {
        assertThatThrownBy(() -> load(env, flink, args))
                .as(name + " with args " + Arrays.toString(args))
                .isInstanceOf(SettingsException.class)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").doesNotContain("hush"));
    }

    @Test
    void describeListsEverySettingButNeverTheSecretKeyOrTheToken() {
        Map<String, String> env = new HashMap<>(REQUIRED);
        env.put("QUEEN_S3_ACCESS_KEY", "AKIAPUBLIC");
        env.put("QUEEN_S3_SECRET_KEY", "very-secret-key");
        env.put("QUEEN_TOKEN", "very-secret-token");
        LakeSettings s = load(env, Map.of());
        String line = s.describe();
        assertThat(line).doesNotContain("very-secret").doesNotContain("\n")
                .contains("QUEEN_S3_SECRET_KEY=(set) [env]", "QUEEN_TOKEN=(set) [env]", "QUEEN_S3_ACCESS_KEY=AKIAPUBLIC");
        for (Setting setting : Setting.values()) {
            assertThat(line).contains(setting.envName() + "=");
        }
        assertThat(s.toString()).doesNotContain("very-secret");
    }

    @Test
    void aSecretIsReadFromTheFileItsFileVariableNamesWithOneTrailingNewlineStripped(@TempDir Path dir)
            throws IOException {
        Map<String, String> env = new HashMap<>(REQUIRED);
        env.put("QUEEN_S3_ACCESS_KEY", "AKIAPUBLIC");
        env.put("QUEEN_S3_SECRET_KEY_FILE", file(dir, "secret-key", "very-secret-key\n").toString());
        env.put("QUEEN_TOKEN_FILE", file(dir, "token", "very-secret-token\r\n").toString());
        LakeSettings s = load(env, Map.of());
        assertThat(s.secretKey()).isEqualTo("very-secret-key");
        assertThat(s.queenToken()).isEqualTo("very-secret-token");
        assertThat(s.originOf(Setting.SECRET_KEY)).isEqualTo(Origin.FILE);
        assertThat(s.originOf(Setting.QUEEN_TOKEN)).isEqualTo(Origin.FILE);
        assertThat(s.describe()).doesNotContain("very-secret")
                .contains("QUEEN_S3_SECRET_KEY=(set) [file]", "QUEEN_TOKEN=(set) [file]");
        assertThat(s.argumentSecretsWarning()).isEmpty();
        env.put("QUEEN_TOKEN_FILE", file(dir, "bare", "bare-token").toString());
        assertThat(load(env, Map.of()).queenToken()).as("no newline at all").isEqualTo("bare-token");
    }

    @Test
    void anArgumentOrAFlinkKeyBeatsTheFileAndAnArgumentIsWarnedAbout(@TempDir Path dir) throws IOException {
        Map<String, String> env = new HashMap<>(REQUIRED);
        env.put("QUEEN_TOKEN_FILE", file(dir, "token", "from-file\n").toString());
        assertThat(load(env, Map.of("queen.token", "from-flink")).queenToken()).isEqualTo("from-flink");
        LakeSettings s = load(env, Map.of(), "--queen-token", "from-arg");
        assertThat(s.queenToken()).isEqualTo("from-arg");
        assertThat(s.argumentSecretsWarning()).hasValueSatisfying(w -> assertThat(w)
                .startsWith("QUEEN_TOKEN (--queen-token) comes from a job argument, which every user of the host can"
                        + " read in the process list: set QUEEN_TOKEN / QUEEN_TOKEN_FILE in the job's environment")
                .doesNotContain("from-arg").doesNotContain("\n"));
        LakeSettings both = load(REQUIRED, Map.of(), "--access-key", "AK", "--secret-key", "hush", "--queen-token", "t");
        assertThat(both.argumentSecretsWarning()).hasValueSatisfying(w -> assertThat(w)
                .startsWith("QUEEN_S3_SECRET_KEY (--secret-key) and QUEEN_TOKEN (--queen-token) come from a job argument")
                .doesNotContain("hush"));
        assertThat(load(with("QUEEN_TOKEN", "t"), Map.of()).argumentSecretsWarning()).isEmpty();
    }

    /** Stands for a file holding the byte 0xff, which no UTF-8 text has. */
    private static final String NOT_UTF8 = "<0xff>";

    static Stream<Arguments> secretFileRefusals() {
        return Stream.of(
                Arguments.of("a missing file", null, "names a file that cannot be read (no such file): mount the"
                        + " secret there, readable by the job's user, or unset QUEEN_TOKEN_FILE."),
                Arguments.of("an empty file", "", "names an empty file: write QUEEN_TOKEN there"),
                Arguments.of("a lone newline", "\n", "names an empty file"),
                Arguments.of("two trailing newlines", "hush\n\n", "names a file that holds more than the secret"),
                Arguments.of("a second line", "hush\nhush-again\n", "names a file that holds more than the secret"),
                Arguments.of("a leading space", " hush", "names a file that holds more than the secret"),
                Arguments.of("bytes that are not UTF-8", NOT_UTF8, "names a file that is not UTF-8 text"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("secretFileRefusals")
    void aSecretFileThatIsNotTheSecretAloneIsRefusedInOneLineNamingTheVariableAndThePath(String name, String content,
            String message, @TempDir Path dir) throws IOException {
        Path path = dir.resolve("token");
        if (content != null) {
            Files.write(path, content.equals(NOT_UTF8) ? new byte[] {(byte) 0xff, 'h'} : content.getBytes(UTF_8));
        }
        Map<String, String> env = new HashMap<>(REQUIRED);
        env.put("QUEEN_TOKEN_FILE", path.toString());
        assertThatThrownBy(() -> load(env, Map.of()))
                .as(name)
                .isInstanceOf(SettingsException.class)
                .hasMessageStartingWith("QUEEN_TOKEN_FILE='" + path + "' (environment) ")
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").doesNotContain("hush"));
    }

    @Test
    void aSecretFileThatIsADirectoryOrTooBigIsRefused(@TempDir Path dir) throws IOException {
        Map<String, String> env = new HashMap<>(REQUIRED);
        env.put("QUEEN_S3_ACCESS_KEY", "AK");
        env.put("QUEEN_S3_SECRET_KEY_FILE", dir.toString());
        assertThatThrownBy(() -> load(env, Map.of())).isInstanceOf(SettingsException.class)
                .hasMessageStartingWith("QUEEN_S3_SECRET_KEY_FILE='" + dir + "' (environment) names a file that cannot"
                        + " be read (");
        Path big = dir.resolve("big");
        Files.write(big, new byte[SecretFiles.MAX_BYTES + 1]);
        env.put("QUEEN_S3_SECRET_KEY_FILE", big.toString());
        assertThatThrownBy(() -> load(env, Map.of())).isInstanceOf(SettingsException.class)
                .hasMessage("QUEEN_S3_SECRET_KEY_FILE='" + big + "' (environment) names a file over 65536 bytes, too"
                        + " big to be QUEEN_S3_SECRET_KEY: name the file that holds the secret alone.");
    }

    @Test
    void aSecretGivenBothItselfAndAsAFileIsRefusedWithoutEchoingIt(@TempDir Path dir) throws IOException {
        Map<String, String> env = new HashMap<>(REQUIRED);
        env.put("QUEEN_TOKEN", "hush");
        env.put("QUEEN_TOKEN_FILE", file(dir, "token", "hush\n").toString());
        assertThatThrownBy(() -> load(env, Map.of(), "--queen-token", "hush"))
                .isInstanceOf(SettingsException.class)
                .hasMessage("QUEEN_TOKEN and QUEEN_TOKEN_FILE are both set (environment): set one of them, the secret"
                        + " itself or the path of a file holding it.");
        env.remove("QUEEN_TOKEN");
        env.put("QUEEN_S3_SECRET_KEY_FILE", file(dir, "secret", "hush\n").toString());
        assertThatThrownBy(() -> load(env, Map.of()))
                .as("the pairing rule names the file, not the secret")
                .hasMessageStartingWith("QUEEN_S3_SECRET_KEY is set (file named by QUEEN_S3_SECRET_KEY_FILE) but"
                        + " QUEEN_S3_ACCESS_KEY is not")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("hush"));
    }

    private static Path file(Path dir, String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    @Test
    void staticKeysGoToTheS3FileSystemAndTheirAbsenceSelectsTheAwsChain() {
        Map<String, String> env = new HashMap<>(REQUIRED);
        env.put("QUEEN_S3_ACCESS_KEY", "AK");
        env.put("QUEEN_S3_SECRET_KEY", "SK");
        LakeSettings keyed = load(env, Map.of(), "--endpoint", "https://127.0.0.1:9000", "--path-style", "true",
                "--region", "us-east-1", "--sse", "aws:kms", "--sse-kms-key-id", "arn:k");
        assertThat(keyed.fileSystemOptions()).containsEntry("s3.endpoint", "https://127.0.0.1:9000")
                .containsEntry("s3.path.style.access", "true").containsEntry("s3.endpoint.region", "us-east-1")
                .containsEntry("s3.access-key", "AK").containsEntry("s3.secret-key", "SK")
                .containsEntry("s3.encryption.algorithm", "SSE-KMS").containsEntry("s3.encryption.key", "arn:k")
                .containsEntry("s3.multipart.threshold", String.valueOf(64L * 1024 * 1024))
                .containsEntry("s3.directory.marker.retention", "keep")
                .doesNotContainKey("s3.aws.credentials.provider");
        LakeSettings chained = load(REQUIRED, Map.of(), "--sse", "AES256");
        assertThat(chained.fileSystemOptions())
                .containsEntry("s3.aws.credentials.provider", "com.amazonaws.auth.DefaultAWSCredentialsProviderChain")
                .containsEntry("s3.encryption.algorithm", "AES256")
                .doesNotContainKeys("s3.access-key", "s3.secret-key", "s3.endpoint");
        Configuration cluster = new Configuration();
        cluster.setString("s3.aws.credentials.provider", "com.example.Provider");
        assertThat(LakeFileSystem.configuration(cluster, chained).getString("s3.aws.credentials.provider", null))
                .isEqualTo("com.example.Provider");
    }

    @Test
    void theLakeRootIsTheBucketOnS3OrItsFolderUnderALocalEndpoint() {
        assertThat(load(REQUIRED, Map.of(), "--prefix", "a/b").lakePath()).isEqualTo("s3://lake/a/b");
        LakeSettings local = load(REQUIRED, Map.of(), "--endpoint", "file:///tmp/lakes/");
        assertThat(local.lakeRoot()).isEqualTo("file:///tmp/lakes/lake");
        assertThat(local.lakePath()).isEqualTo("file:///tmp/lakes/lake/queen");
        assertThat(local.fileSystemOptions()).isEmpty();
    }

    @Test
    void theSettingsBuildTheSourceTheWindowsAndTheSink() {
        LakeSettings s = load(REQUIRED, Map.of(), "--queues", "orders,refunds", "--max-window-ms", "60000",
                "--sink", "eu", "--queen-url", "http://127.0.0.1:6632", "--checkpoint-every", "7");
        assertThat(s.source().config().queues()).containsExactly("orders", "refunds");
        assertThat(s.source().config().lakeRoot()).isEqualTo("s3://lake/queen");
        assertThat(s.source().config().maxWindowMs()).isEqualTo(60_000);
        assertThat(s.windowSettings().checkpointEvery()).isEqualTo(7);
        assertThat(s.windowSettings().sink()).isEqualTo("eu");
        assertThat(load(REQUIRED, Map.of("queen.s3.memory-mb", "3")).windowSettings().memoryBytes())
                .as("the open windows' budget in bytes").isEqualTo(3L * 1024 * 1024);
        assertThat(s.lakeSink().config().root()).isEqualTo("s3://lake");
        assertThat(s.lakeSink().config().sinkName()).isEqualTo("eu");
        assertThat(s.jobName()).isEqualTo("queen-lake: orders, refunds -> s3://lake/queen");
    }

    @Test
    void theReadmeTableHasOneRowPerSettingWithItsThreeSpellings() {
        String table = SettingsTable.markdown();
        assertThat(table.lines().filter(l -> l.startsWith("| `QUEEN_"))).hasSize(Setting.values().length);
        assertThat(table).contains("| `QUEEN_S3_MAX_WINDOW_MS` | `--max-window-ms` | `queen.s3.max-window-ms` | `300000` | 100..86400000 |")
                .contains("| `QUEEN_S3_QUEUES` | `--queues` | `queen.s3.queues` | **required** |");
    }

    @Test
    void theClusterConfigurationIsToldWhichS3KeysItLacksWithoutTheirValues() {
        Map<String, String> env = new HashMap<>(REQUIRED);
        env.put("QUEEN_S3_ACCESS_KEY", "AK");
        env.put("QUEEN_S3_SECRET_KEY", "SK");
        LakeSettings s = load(env, Map.of(), "--endpoint", "http://127.0.0.1:9000", "--path-style", "true");
        Configuration cluster = new Configuration();
        cluster.setString("s3.endpoint", "http://127.0.0.1:9000");
        cluster.setString("s3.path.style.access", "false");
        cluster.setString("s3.access-key", "AK");
        assertThat(LakeFileSystem.missingFromCluster(cluster, s))
                .containsExactly("s3.path.style.access", "s3.secret-key", "s3.multipart.threshold",
                        "s3.directory.marker.retention");
        assertThat(LakeFileSystem.missingFromCluster(LakeFileSystem.configuration(cluster, s), s)).isEmpty();
        // The plugin reads s3.x, s3a.x and fs.s3a.x alike: a cluster may spell a key any of those ways.
        cluster.setString("fs.s3a.directory.marker.retention", "keep");
        cluster.setString("s3a.multipart.threshold", String.valueOf(64L * 1024 * 1024));
        assertThat(LakeFileSystem.missingFromCluster(cluster, s)).containsExactly("s3.path.style.access", "s3.secret-key");
        assertThat(LakeFileSystem.missingFromCluster(new Configuration(),
                load(REQUIRED, Map.of(), "--endpoint", "file:///tmp/lakes"))).isEmpty();
    }
}
