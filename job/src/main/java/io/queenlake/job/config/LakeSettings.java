package io.queenlake.job.config;

import io.queenlake.format.key.Prefix;
import io.queenlake.format.object.Format;
import io.queenlake.format.window.WriterSettings;
import io.queenlake.iceberg.CatalogLink;
import io.queenlake.connector.QueenLake;
import io.queenlake.connector.sink.LakeSink;
import io.queenlake.connector.window.WindowSettings;
import io.queenlake.source.QueenSource;
import io.queenlake.source.QueenSourceOptions;
import io.queenlake.source.StartMode;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * Every setting in force, validated by {@link SettingsLoader}, and the parts built from them: the
 * {@link QueenSource}, the {@link WindowSettings}, the {@link LakeSink}, and the Flink {@code s3.*}
 * options for the S3 file system. {@link #describe()} and {@link #toString()} never show the secret
 * key or the token.
 *
 * <p>Credentials: with {@code QUEEN_S3_ACCESS_KEY} and {@code QUEEN_S3_SECRET_KEY} the S3 file system
 * gets them as {@code s3.access-key}/{@code s3.secret-key}; with neither it gets
 * {@code s3.aws.credentials.provider=com.amazonaws.auth.DefaultAWSCredentialsProviderChain}
 * (environment, system properties, web identity / IRSA, profile, container and instance role),
 * unless the cluster configuration names a provider itself.
 */
public record LakeSettings(
        List<String> queues,
        LakeEndpoint endpoint,
        String region,
        String bucket,
        String accessKey,
        String secretKey,
        Prefix prefix,
        boolean pathStyle,
        String sse,
        String sseKmsKeyId,
        WriterSettings writer,
        StartMode start,
        long maxWindowMs,
        String sink,
        long safeGuardMs,
        long discoveryIntervalMs,
        int fetchConcurrency,
        int commitConcurrency,
        int commitKvWritesPerSecond,
        long leaseTtlMs,
        int checkpointEvery,
        int multipartThresholdMb,
        int memoryMb,
        String instance,
        String queenUrl,
        String queenToken,
        String tenant,
        Map<Setting, Origin> origins,
        Optional<CatalogLink> catalog) {

    /** The credential provider chain used when no static key pair is set. */
    public static final String AWS_CHAIN = "com.amazonaws.auth.DefaultAWSCredentialsProviderChain";
    /** The Flink key of the S3 file system's credential providers. */
    public static final String CREDENTIALS_PROVIDER_KEY = "s3.aws.credentials.provider";
    /**
     * The S3 file system's directory-marker policy the lake needs ({@link #MARKER_RETENTION}): the
     * clusters' configurations (flink-conf/, k8s-operator/) set it for the task managers.
     */
    public static final String MARKER_RETENTION_KEY = "s3.directory.marker.retention";
    public static final String MARKER_RETENTION = "keep";
    /** Broker calls from the job: the same bound as the source's default. */
    static final Duration BROKER_REQUEST_TIMEOUT = Duration.ofMillis(QueenSourceOptions.DEFAULT_REQUEST_TIMEOUT_MS);

    public LakeSettings {
        queues = List.copyOf(queues);
        Map<Setting, Origin> copy = new EnumMap<>(Setting.class);
        copy.putAll(origins);
        origins = copy;
    }

    /** The precedence of the four sources of a value, highest first. */
    public static String precedence() {
        return SettingsLoader.PRECEDENCE;
    }

    /** The file system root of the bucket: {@code s3://<bucket>} or {@code file:///<dir>/<bucket>}. */
    public String lakeRoot() {
        return endpoint.root(bucket);
    }

    /** The lake's base path with its prefix, e.g. {@code s3://lake/queen}. */
    public String lakePath() {
        return lakeRoot() + "/" + prefix.value();
    }

    /** Whether the lake is a local folder ({@code QUEEN_S3_ENDPOINT=file:///...}) rather than S3. */
    public boolean localFolder() {
        return endpoint.isLocalFolder();
    }

    /** Whether credentials are the static key pair (else the AWS chain). */
    public boolean staticKeys() {
        return accessKey != null;
    }

    public Optional<String> token() {
        return Optional.ofNullable(queenToken);
    }

    /** Where {@code setting}'s value in force came from. */
    public Origin originOf(Setting setting) {
        return origins.getOrDefault(setting, Origin.DEFAULT);
    }

    /**
     * One warning line when a secret came from a job argument ({@code --secret-key},
     * {@code --queen-token}): a command line is readable by every user of the host ({@code ps}) and
     * kept in shell histories. Empty when every secret came from elsewhere or is unset.
     */
    public Optional<String> argumentSecretsWarning() {
        List<Setting> given = Arrays.stream(Setting.values())
                .filter(s -> s.secret() && originOf(s) == Origin.ARGUMENT).toList();
        if (given.isEmpty()) {
            return Optional.empty();
        }
        StringJoiner names = new StringJoiner(" and ");
        StringJoiner instead = new StringJoiner(" or ");
        for (Setting s : given) {
            names.add(s.envName() + " (--" + s.argName() + ")");
            instead.add(s.envName() + " / " + SecretFiles.variable(s));
        }
        return Optional.of(names + (given.size() == 1 ? " comes" : " come") + " from a job argument, which every user"
                + " of the host can read in the process list: set " + instead + " in the job's environment instead.");
    }

    /** The job name Flink shows: the queues it mirrors. */
    public String jobName() {
        return "queen-lake: " + String.join(", ", queues) + " -> " + lakePath();
    }

    /**
     * The connector as these settings configure it: one broker connection for the source, the
     * windows and the sink, the lake's root and layout, and each part's own tuning.
     */
    public QueenLake queenLake() {
        return QueenLake.builder()
                .brokerUrl(queenUrl)
                .token(queenToken)
                .tenant(tenant)
                .sinkName(sink)
                .requestTimeout(BROKER_REQUEST_TIMEOUT)
                .queues(queues)
                .lakeRoot(lakeRoot())
                .prefix(prefix)
                .writerSettings(writer)
                .maxWindowMs(maxWindowMs)
                .checkpointEvery(checkpointEvery)
                .memoryBytes(memoryMb * 1024L * 1024L)
                .start(start)
                .tables(catalog.orElse(null))
                .source(source -> source
                        .instance(instance)
                        .safeGuardMs(safeGuardMs)
                        .discoveryIntervalMs(discoveryIntervalMs)
                        .fetchConcurrency(fetchConcurrency)
                        .leaseTtlMs(leaseTtlMs))
                .sink(lake -> lake
                        .endpoint(endpoint.text())
                        .commitConcurrency(commitConcurrency)
                        .commitKvWritesPerSecond(commitKvWritesPerSecond))
                .build();
    }

    public QueenSource source() {
        return queenLake().source();
    }

    public WindowSettings windowSettings() {
        return queenLake().windows();
    }

    public LakeSink lakeSink() {
        return queenLake().sink();
    }

    /**
     * The Flink {@code s3.*} options these settings give the S3 file system (flink-s3-fs-hadoop
     * mirrors each {@code s3.x} to Hadoop's {@code fs.s3a.x}); empty for a local folder.
     */
    public Map<String, String> fileSystemOptions() {
        Map<String, String> options = new LinkedHashMap<>();
        if (localFolder()) {
            return options;
        }
        endpoint.uri().ifPresent(uri -> options.put("s3.endpoint", uri.toString()));
        if (region != null) {
            options.put("s3.endpoint.region", region);
        }
        options.put("s3.path.style.access", Boolean.toString(pathStyle));
        if (staticKeys()) {
            options.put("s3.access-key", accessKey);
            options.put("s3.secret-key", secretKey);
        } else {
            options.put(CREDENTIALS_PROVIDER_KEY, AWS_CHAIN);
        }
        if (sse != null) {
            // S3A's names (S3AEncryptionMethods): AES256 is SSE-S3; "SSE-S3" itself fails every write.
            options.put("s3.encryption.algorithm", sse.equals("AES256") ? "AES256" : "SSE-KMS");
            if (sseKmsKeyId != null) {
                options.put("s3.encryption.key", sseKmsKeyId);
            }
        }
        options.put("s3.multipart.threshold", Long.toString(multipartThresholdMb * 1024L * 1024L));
        // Hadoop 3.3's S3A (the plugin's) deletes the parents' directory markers after every object
        // it writes: a bulk DELETE per object and per manifest, two of the nine requests a window
        // takes, for markers the lake's writes never create. 3.4 keeps them by default; so do the
        // clusters' configurations in flink-conf/ and k8s-operator/.
        options.put(MARKER_RETENTION_KEY, MARKER_RETENTION);
        return options;
    }

    /** How the bucket is authenticated, in words. */
    public String credentials() {
        if (localFolder()) {
            return "none (local folder)";
        }
        return staticKeys() ? "static key pair" : "AWS credential chain (environment, web identity, profile, instance role)";
    }

    /** One line with every setting in force and its origin; the secret key and the token show as set or unset. */
    public String describe() {
        Map<Setting, String> shown = new EnumMap<>(Setting.class);
        shown.put(Setting.QUEUES, String.join(",", queues));
        shown.put(Setting.ENDPOINT, endpoint.text());
        shown.put(Setting.REGION, region == null ? "(unset)" : region);
        shown.put(Setting.BUCKET, bucket);
        shown.put(Setting.ACCESS_KEY, accessKey == null ? "(unset)" : accessKey);
        shown.put(Setting.SECRET_KEY, secretKey == null ? "(unset)" : "(set)");
        shown.put(Setting.PREFIX, prefix.value());
        shown.put(Setting.PATH_STYLE, Boolean.toString(pathStyle));
        shown.put(Setting.SSE, sse == null ? "(unset)" : sse);
        shown.put(Setting.SSE_KMS_KEY_ID, sseKmsKeyId == null ? "(unset)" : sseKmsKeyId);
        Format format = writer.format();
        boolean parquet = format instanceof Format.Parquet;
        String notApplicable = "(" + format.name() + ")";
        shown.put(Setting.FORMAT, format.name());
        shown.put(Setting.COMPRESSION, parquet ? notApplicable : format.codecName());
        shown.put(Setting.PARQUET_CODEC, parquet ? format.codecName() : notApplicable);
        shown.put(Setting.LAYOUT, writer.layout().wireName());
        shown.put(Setting.ALIGN, writer.align().wireName());
        shown.put(Setting.START, start.name().toLowerCase(java.util.Locale.ROOT));
        shown.put(Setting.TARGET_MB, Long.toString(writer.targetBytes() / (1024L * 1024L)));
        shown.put(Setting.MEMORY_MB, Integer.toString(memoryMb));
        shown.put(Setting.MAX_WINDOW_MS, Long.toString(maxWindowMs));
        shown.put(Setting.SINK, sink);
        shown.put(Setting.SAFE_GUARD_MS, Long.toString(safeGuardMs));
        shown.put(Setting.DISCOVERY_INTERVAL_MS, Long.toString(discoveryIntervalMs));
        shown.put(Setting.FETCH_CONCURRENCY, Integer.toString(fetchConcurrency));
        shown.put(Setting.COMMIT_CONCURRENCY, Integer.toString(commitConcurrency));
        shown.put(Setting.COMMIT_KV_WRITES_PER_SECOND, Integer.toString(commitKvWritesPerSecond));
        shown.put(Setting.LEASE_TTL_MS, Long.toString(leaseTtlMs));
        shown.put(Setting.CHECKPOINT_EVERY, Integer.toString(checkpointEvery));
        shown.put(Setting.MULTIPART_THRESHOLD_MB, Integer.toString(multipartThresholdMb));
        shown.put(Setting.INSTANCE, instance);
        shown.put(Setting.QUEEN_URL, queenUrl);
        shown.put(Setting.QUEEN_TOKEN, queenToken == null ? "(unset)" : "(set)");
        shown.put(Setting.QUEEN_TENANT, tenant);
        StringJoiner line = new StringJoiner(", ", "queen-lake settings: ", "");
        for (Setting s : Setting.values()) {
            line.add(s.envName() + "=" + shown.get(s) + " [" + originOf(s).tag() + "]");
        }
        line.add("credentials=" + credentials());
        line.add("lake=" + lakePath());
        return line.toString();
    }

    @Override
    public String toString() {
        return describe();
    }

    /** The settings are built by name, and only by {@link SettingsLoader} once it has validated them. */
    static LakeSettingsBuilder builder() {
        return new LakeSettingsBuilder();
    }
}
