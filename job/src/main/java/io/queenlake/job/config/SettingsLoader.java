package io.queenlake.job.config;

import io.queenlake.format.key.Prefix;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.format.object.Format;
import io.queenlake.format.window.WriterSettings;
import io.queenlake.iceberg.CatalogLink;
import io.queenlake.iceberg.TableUpkeep;
import io.queenlake.connector.sink.LakeSinkOptions;
import io.queenlake.connector.window.WindowRules;
import io.queenlake.source.QueenSourceOptions;
import io.queenlake.source.StartMode;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Reads every {@link Setting} from the job arguments, the Flink configuration and the environment,
 * validates each value and the rules between them, and returns {@link LakeSettings} or throws one
 * {@link SettingsException} whose message is one line.
 *
 * <p>Precedence, highest first ({@link #PRECEDENCE}): a job argument ({@code --queues orders} or
 * {@code --QUEEN_S3_QUEUES orders}), then the Flink configuration key ({@code queen.s3.queues} in
 * config.yaml or {@code -Dqueen.s3.queues=orders}), then the environment variable
 * ({@code QUEEN_S3_QUEUES}), then the default. A blank value counts as unset at every level, as in
 * the reference sink. Refused: a missing required setting, a value out of range or not among the
 * accepted spellings, a window size that does not divide the alignment, a bad prefix, an endpoint
 * with a path, {@code QUEEN_S3_PARTITIONS} in any spelling, an access key without its secret or the
 * reverse, an unknown job argument or {@code queen.*} Flink key.
 *
 * <p>A secret ({@code QUEEN_S3_SECRET_KEY}, {@code QUEEN_TOKEN}) may also come from the file its
 * {@code _FILE} variable names, at the environment's place ({@link SecretFiles}); one given as a job
 * argument is visible to every user of the host, which {@link LakeSettings#argumentSecretsWarning()}
 * says.
 */
public final class SettingsLoader {

    /** The precedence in words, for the README and the start log. */
    public static final String PRECEDENCE = "job argument (--queues or --QUEEN_S3_QUEUES) > Flink configuration key"
            + " (queen.s3.queues) > environment variable (QUEEN_S3_QUEUES) > default";

    private static final String PARTITIONS_KEY = "queen.s3.partitions";

    private SettingsLoader() {}

    /**
     * @param env the environment ({@code System.getenv()})
     * @param args the job's arguments
     * @param flinkConf the Flink configuration the job sees (the cluster's and {@code -D} options)
     */
    public static LakeSettings load(Map<String, String> env, String[] args, ReadableConfig flinkConf) {
        refusePartitions(env, flinkConf);
        refuseUnknownKeys(flinkConf);
        SecretFiles.refuseBoth(env);
        Map<Setting, String> fromArgs = JobArguments.parse(args);
        Map<Setting, String> raw = new EnumMap<>(Setting.class);
        Map<Setting, Origin> origins = new EnumMap<>(Setting.class);
        for (Setting s : Setting.values()) {
            String value = fromArgs.get(s);
            Origin origin = Origin.ARGUMENT;
            if (isBlank(value)) {
                value = flinkConf.getOptional(s.option()).orElse(null);
                origin = Origin.FLINK_CONFIGURATION;
            }
            if (isBlank(value)) {
                value = env.get(s.envName());
                origin = Origin.ENVIRONMENT;
            }
            if (isBlank(value) && s.secret()) {
                value = SecretFiles.read(s, env);
                origin = Origin.FILE;
            }
            if (isBlank(value)) {
                value = s.defaultValue();
                origin = Origin.DEFAULT;
            }
            if (value == null) {
                if (s.required()) {
                    throw new SettingsException(s.envName() + " is required but not set: pass --" + s.argName()
                            + ", set the Flink key " + s.flinkKey() + " or the variable " + s.envName()
                            + " (allowed " + s.allowed() + ").");
                }
                continue;
            }
            raw.put(s, value.strip());
            origins.put(s, origin);
        }
        return QueueKeyCheck.check(new Reader(raw, origins).settings());
    }

    private static void refusePartitions(Map<String, String> env, ReadableConfig flinkConf) {
        if (env.containsKey(JobArguments.PARTITIONS)) {
            throw JobArguments.partitionsRefused("(environment)");
        }
        if (flinkConf.getOptional(org.apache.flink.configuration.ConfigOptions.key(PARTITIONS_KEY).stringType()
                .noDefaultValue()).isPresent()) {
            throw JobArguments.partitionsRefused("(Flink configuration " + PARTITIONS_KEY + ")");
        }
    }

    /** A misspelt key under {@code queen.} would otherwise be ignored while its default applies. */
    private static void refuseUnknownKeys(ReadableConfig flinkConf) {
        if (!(flinkConf instanceof Configuration conf)) {
            return;
        }
        Set<String> known = new HashSet<>();
        for (Setting s : Setting.values()) {
            known.add(s.flinkKey());
        }
        for (String key : conf.keySet()) {
            if (key.startsWith("queen.") && !known.contains(key)) {
                throw new SettingsException("the Flink configuration key " + key
                        + " is not a queen-lake setting: use queen.s3.<name> or queen.url/token/tenant as the README"
                        + " lists them.");
            }
        }
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }

    /** Turns the raw text in force into typed values, refusing with the origin of each value. */
    private static final class Reader {

        private final Map<Setting, String> raw;
        private final Map<Setting, Origin> origins;

        Reader(Map<Setting, String> raw, Map<Setting, Origin> origins) {
            this.raw = raw;
            this.origins = origins;
        }

        LakeSettings settings() {
            List<String> queues = QueueList.parse(text(Setting.QUEUES), origins.get(Setting.QUEUES));
            LakeEndpoint endpoint = LakeEndpoint.parse(text(Setting.ENDPOINT), origin(Setting.ENDPOINT));
            String region = text(Setting.REGION);
            String bucket = text(Setting.BUCKET);
            if (bucket.contains("..")) {
                throw Setting.BUCKET.refusal(bucket, origin(Setting.BUCKET), "has two dots in a row");
            }
            String accessKey = text(Setting.ACCESS_KEY);
            String secretKey = text(Setting.SECRET_KEY);
            if ((accessKey == null) != (secretKey == null)) {
                Setting set = accessKey != null ? Setting.ACCESS_KEY : Setting.SECRET_KEY;
                Setting missing = accessKey != null ? Setting.SECRET_KEY : Setting.ACCESS_KEY;
                throw new SettingsException(set.envName() + " is set " + origin(set).describe(set) + " but "
                        + missing.envName() + " is not: set both for a static key pair, or neither to use the AWS"
                        + " credential chain (a lone half would authenticate as someone else).");
            }
            Prefix prefix;
            try {
                prefix = Prefix.of(text(Setting.PREFIX));
            } catch (IllegalArgumentException e) {
                throw new SettingsException(Setting.PREFIX.envName() + "='" + text(Setting.PREFIX) + "' "
                        + origin(Setting.PREFIX).describe(Setting.PREFIX) + " is refused: " + e.getMessage());
            }
            boolean pathStyle = typed(Setting.PATH_STYLE, Boolean.class);
            String sse = text(Setting.SSE);
            String kmsKey = text(Setting.SSE_KMS_KEY_ID);
            if (kmsKey != null && !"aws:kms".equals(sse)) {
                throw new SettingsException(Setting.SSE_KMS_KEY_ID.envName() + "='" + kmsKey + "' "
                        + origin(Setting.SSE_KMS_KEY_ID).describe(Setting.SSE_KMS_KEY_ID) + " needs QUEEN_S3_SSE=aws:kms"
                        + " (it is " + (sse == null ? "unset" : sse) + "): set QUEEN_S3_SSE=aws:kms or remove the key id.");
            }
            if ("aws:kms".equals(sse) && endpoint.isPlainHttp()) {
                throw new SettingsException(Setting.SSE.envName() + "='" + sse + "' " + origin(Setting.SSE)
                        .describe(Setting.SSE) + " needs HTTPS, and QUEEN_S3_ENDPOINT is " + endpoint.text()
                        + " (the S3 file system's AWS SDK sends no KMS header over plain HTTP): use an https://"
                        + " endpoint or QUEEN_S3_SSE=AES256.");
            }
            if (sse != null && endpoint.isLocalFolder()) {
                throw new SettingsException(Setting.SSE.envName() + "='" + sse + "' " + origin(Setting.SSE)
                        .describe(Setting.SSE) + " cannot apply to the local folder " + endpoint.text()
                        + ": unset QUEEN_S3_SSE or use an S3 endpoint.");
            }
            WriterSettings writer = writer();
            CatalogLink catalog = catalog(writer, endpoint, region, pathStyle, accessKey, secretKey, prefix);
            StartMode start = typed(Setting.START, StartMode.class);
            long maxWindowMs = number(Setting.MAX_WINDOW_MS);
            WindowRules.problem(maxWindowMs, writer.align(), Setting.VARIABLES).ifPresent(problem -> {
                throw new SettingsException(problem + " " + origin(Setting.MAX_WINDOW_MS).describe(Setting.MAX_WINDOW_MS)
                        + ".");
            });
            String sink = text(Setting.SINK);
            String instance = instance();
            String queenUrl = QueenUrl.check(text(Setting.QUEEN_URL), origin(Setting.QUEEN_URL));
            String token = raw(Setting.QUEEN_TOKEN);
            if (token != null && !QueenSourceOptions.QUEEN_TOKEN.passes(token)) {
                throw new SettingsException(Setting.QUEEN_TOKEN.envName() + " " + origin(Setting.QUEEN_TOKEN)
                        .describe(Setting.QUEEN_TOKEN) + " contains spaces or control characters: set the bare"
                        + " token, without 'Bearer '.");
            }
            String tenant = text(Setting.QUEEN_TENANT).toLowerCase(java.util.Locale.ROOT);
            return LakeSettings.builder()
                    .queues(queues).endpoint(endpoint).region(region).bucket(bucket)
                    .accessKey(accessKey).secretKey(secretKey).prefix(prefix).pathStyle(pathStyle)
                    .sse(sse).sseKmsKeyId(kmsKey).writer(writer).start(start).maxWindowMs(maxWindowMs).sink(sink)
                    .safeGuardMs(number(Setting.SAFE_GUARD_MS))
                    .discoveryIntervalMs(number(Setting.DISCOVERY_INTERVAL_MS))
                    .fetchConcurrency((int) number(Setting.FETCH_CONCURRENCY))
                    .commitConcurrency((int) number(Setting.COMMIT_CONCURRENCY))
                    .commitKvWritesPerSecond((int) number(Setting.COMMIT_KV_WRITES_PER_SECOND))
                    .leaseTtlMs(number(Setting.LEASE_TTL_MS))
                    .checkpointEvery((int) number(Setting.CHECKPOINT_EVERY))
                    .multipartThresholdMb((int) number(Setting.MULTIPART_THRESHOLD_MB))
                    .memoryMb((int) number(Setting.MEMORY_MB))
                    .instance(instance).queenUrl(queenUrl).queenToken(token).tenant(tenant).origins(origins)
                    .catalog(catalog)
                    .build();
        }

        /** The Iceberg catalog of QUEEN_LAKE_ICEBERG_*, null with QUEEN_LAKE_ICEBERG_CATALOG=none. */
        private CatalogLink catalog(WriterSettings writer, LakeEndpoint endpoint, String region, boolean pathStyle,
                String accessKey, String secretKey, Prefix prefix) {
            String kind = text(Setting.ICEBERG_CATALOG);
            List<Setting> detail = List.of(Setting.ICEBERG_URI, Setting.ICEBERG_WAREHOUSE, Setting.ICEBERG_NAMESPACE,
                    Setting.ICEBERG_TOKEN, Setting.ICEBERG_CREDENTIAL, Setting.ICEBERG_USER, Setting.ICEBERG_PASSWORD,
                    Setting.ICEBERG_SNAPSHOT_MAX_AGE_MS, Setting.ICEBERG_SNAPSHOTS_KEPT, Setting.ICEBERG_SNAPSHOTS_MAX,
                    Setting.ICEBERG_METADATA_VERSIONS_KEPT, Setting.ICEBERG_MANIFESTS_MERGE_AT,
                    Setting.ICEBERG_EXPIRE_EVERY_MS, Setting.ICEBERG_ORPHAN_FILES_OLDER_THAN_MS,
                    Setting.ICEBERG_BACKFILL_WINDOWS);
            if ("none".equals(kind)) {
                for (Setting s : detail) {
                    if (origin(s) != Origin.DEFAULT) {
                        throw new SettingsException(s.envName() + " " + origin(s).describe(s) + " has no effect while"
                                + " QUEEN_LAKE_ICEBERG_CATALOG is none: set QUEEN_LAKE_ICEBERG_CATALOG=rest or jdbc, or remove it.");
                    }
                }
                return null;
            }
            if (!(writer.format() instanceof Format.Parquet)) {
                throw new SettingsException("QUEEN_LAKE_ICEBERG_CATALOG=" + kind + " " + origin(Setting.ICEBERG_CATALOG)
                        .describe(Setting.ICEBERG_CATALOG) + " registers the lake's Parquet objects as the tables' data"
                        + " files, so it needs QUEEN_S3_FORMAT=parquet (it is " + writer.format().name()
                        + "): set QUEEN_S3_FORMAT=parquet, or QUEEN_LAKE_ICEBERG_CATALOG=none.");
            }
            String uri = text(Setting.ICEBERG_URI);
            boolean rest = "rest".equals(kind);
            String scheme = rest ? "an http:// or https:// URL" : "a jdbc: URL (jdbc:postgresql://host/db, jdbc:sqlite:/path/catalog.db)";
            if (uri == null) {
                throw new SettingsException("QUEEN_LAKE_ICEBERG_URI is required with QUEEN_LAKE_ICEBERG_CATALOG=" + kind
                        + ": set it to the catalog's address, " + scheme + ".");
            }
            if (rest ? !uri.matches("https?://\\S+") : !uri.startsWith("jdbc:")) {
                throw new SettingsException("QUEEN_LAKE_ICEBERG_URI='" + uri + "' " + origin(Setting.ICEBERG_URI)
                        .describe(Setting.ICEBERG_URI) + " is not " + scheme + ", which QUEEN_LAKE_ICEBERG_CATALOG=" + kind
                        + " needs.");
            }
            if (uri.startsWith("jdbc:sqlite:") && !sqliteDriverPresent()) {
                // The flink run jar leaves the SQLite driver out: a SQLite file is one machine's, not a cluster's.
                throw new SettingsException("QUEEN_LAKE_ICEBERG_URI='" + uri + "' " + origin(Setting.ICEBERG_URI)
                        .describe(Setting.ICEBERG_URI) + " is a SQLite file, which the flink run jar does not carry a"
                        + " driver for: on a cluster use jdbc:postgresql:// or a REST catalog; SQLite is for"
                        + " ./queen-lake run and demo.");
            }
            List<Setting> foreign = rest ? List.of(Setting.ICEBERG_USER, Setting.ICEBERG_PASSWORD)
                    : List.of(Setting.ICEBERG_TOKEN, Setting.ICEBERG_CREDENTIAL);
            for (Setting s : foreign) {
                if (origin(s) != Origin.DEFAULT) {
                    throw new SettingsException(s.envName() + " " + origin(s).describe(s) + " applies to the "
                            + (rest ? "jdbc" : "rest") + " catalog, not to QUEEN_LAKE_ICEBERG_CATALOG=" + kind + ": remove it.");
                }
            }
            String token = raw(Setting.ICEBERG_TOKEN);
            String credential = raw(Setting.ICEBERG_CREDENTIAL);
            if (token != null && credential != null) {
                throw new SettingsException("QUEEN_LAKE_ICEBERG_TOKEN and QUEEN_LAKE_ICEBERG_CREDENTIAL are both set: the"
                        + " REST catalog takes a bearer token or OAuth2 client credentials, set only one.");
            }
            if (credential != null && !JobOptions.ICEBERG_CREDENTIAL.passes(credential)) {
                throw new SettingsException("QUEEN_LAKE_ICEBERG_CREDENTIAL " + origin(Setting.ICEBERG_CREDENTIAL)
                        .describe(Setting.ICEBERG_CREDENTIAL) + " is not client_id:client_secret.");
            }
            String warehouse = text(Setting.ICEBERG_WAREHOUSE);
            if (!rest && warehouse == null) {
                throw new SettingsException("QUEEN_LAKE_ICEBERG_WAREHOUSE is required with QUEEN_LAKE_ICEBERG_CATALOG=jdbc:"
                        + " set where the tables' metadata goes, e.g. s3://<bucket>/iceberg.");
            }
            String namespace = text(Setting.ICEBERG_NAMESPACE);
            if (namespace == null) {
                namespace = prefix.value().replace('/', '.');
            }
            Map<String, String> fileIo = CatalogLink.lakeFileIo(endpoint.isLocalFolder() ? null
                    : endpoint.uri().map(Object::toString).orElse(null), region, pathStyle, accessKey, secretKey);
            CatalogLink link = rest
                    ? CatalogLink.rest(uri, warehouse, namespace, token, credential, fileIo)
                    : CatalogLink.jdbc(uri, warehouse, namespace, text(Setting.ICEBERG_USER), raw(Setting.ICEBERG_PASSWORD), fileIo);
            return link.withUpkeep(upkeep()).withBackfillWindows(text(Setting.ICEBERG_BACKFILL_WINDOWS));
        }

        /** How the tables are kept small: QUEEN_LAKE_ICEBERG_SNAPSHOT_MAX_AGE_MS and the rest. */
        private TableUpkeep upkeep() {
            int kept = (int) number(Setting.ICEBERG_SNAPSHOTS_KEPT);
            int max = (int) number(Setting.ICEBERG_SNAPSHOTS_MAX);
            if (origin(Setting.ICEBERG_SNAPSHOTS_MAX) == Origin.DEFAULT) {
                // The default maximum (100) never refuses a kept count a setup chose before it was lowered.
                max = Math.max(max, kept);
            }
            if (max < kept) {
                throw new SettingsException("QUEEN_LAKE_ICEBERG_SNAPSHOTS_MAX=" + max + " " + origin(Setting.ICEBERG_SNAPSHOTS_MAX)
                        .describe(Setting.ICEBERG_SNAPSHOTS_MAX) + " is below QUEEN_LAKE_ICEBERG_SNAPSHOTS_KEPT=" + kept
                        + ": a table keeps at least the newest " + kept + " snapshots; raise the first or lower the second.");
            }
            long orphanAge = number(Setting.ICEBERG_ORPHAN_FILES_OLDER_THAN_MS);
            if (orphanAge > 0 && orphanAge < TableUpkeep.ORPHAN_FILES_OLDER_THAN_MIN_MS) {
                throw new SettingsException("QUEEN_LAKE_ICEBERG_ORPHAN_FILES_OLDER_THAN_MS=" + orphanAge + " "
                        + origin(Setting.ICEBERG_ORPHAN_FILES_OLDER_THAN_MS).describe(Setting.ICEBERG_ORPHAN_FILES_OLDER_THAN_MS)
                        + " is below one hour: a younger file may belong to a commit still under way; set at least"
                        + " 3600000 (the default is 259200000, 3 days), or 0 to never delete orphan files.");
            }
            return new TableUpkeep(number(Setting.ICEBERG_SNAPSHOT_MAX_AGE_MS), kept, max,
                    (int) number(Setting.ICEBERG_METADATA_VERSIONS_KEPT), (int) number(Setting.ICEBERG_MANIFESTS_MERGE_AT),
                    number(Setting.ICEBERG_EXPIRE_EVERY_MS), orphanAge);
        }

        private WriterSettings writer() {
            Format format = Format.named(text(Setting.FORMAT));
            Setting unused = Setting.of(LakeSinkOptions.codecNotOf(format));
            if (origin(unused) != Origin.DEFAULT) {
                Setting used = Setting.of(LakeSinkOptions.codecOf(format));
                throw new SettingsException(unused.envName() + "='" + raw(unused) + "' " + origin(unused)
                        .describe(unused) + " does not apply to QUEEN_S3_FORMAT=" + format.name() + ": set "
                        + used.envName() + " (" + used.allowed() + ") instead, or remove it.");
            }
            String compression = text(Setting.of(LakeSinkOptions.codecOf(format)));
            long targetBytes = number(Setting.TARGET_MB) * 1024L * 1024L;
            return new WriterSettings(format.withCodec(compression), typed(Setting.LAYOUT, Layout.class),
                    typed(Setting.ALIGN, Align.class), targetBytes);
        }

        /** The name given, or one drawn now for this job (QueenSourceOptions.defaultInstance()). */
        private String instance() {
            String value = text(Setting.INSTANCE);
            return value == null ? QueenSourceOptions.defaultInstance() : value;
        }

        /** The raw text in force, or null. */
        private String raw(Setting s) {
            return raw.get(s);
        }

        /** The value in force, read into the setting's type within its range, spellings or rule; or null. */
        private <T> T typed(Setting s, Class<T> type) {
            String value = raw(s);
            return value == null ? null : type.cast(s.value(value, origin(s)));
        }

        /** The text in force if it passes the setting's rule (or is one of its spellings), or null. */
        private String text(Setting s) {
            return typed(s, String.class);
        }

        private Origin origin(Setting s) {
            return origins.getOrDefault(s, Origin.DEFAULT);
        }

        private long number(Setting s) {
            return typed(s, Number.class).longValue();
        }
    }

    private static boolean sqliteDriverPresent() {
        try {
            Class.forName("org.sqlite.JDBC", false, SettingsLoader.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException absent) {
            return false;
        }
    }
}
