package io.queenlake.job.config;

import io.queenlake.connector.sink.LakeSinkOptions;
import io.queenlake.connector.window.WindowOptions;
import io.queenlake.source.OptionNames;
import io.queenlake.source.QueenOption;
import io.queenlake.source.QueenSourceOptions;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;

/**
 * Every setting of the job, in the README's order, with the reference sink's name, default and
 * range: each maps an environment variable (and its job argument) onto one option, the
 * connector's ({@link QueenSourceOptions}, {@link WindowOptions}, {@link LakeSinkOptions}) or the
 * application's own ({@link JobOptions}). The option is the one definition: Flink key, type, default,
 * description and check. An entry yields the three spellings: the environment variable
 * ({@code QUEEN_S3_QUEUES}), the job argument ({@code --queues}, also {@code --QUEEN_S3_QUEUES}) and
 * the option's Flink key ({@code queen.s3.queues}). It reads one raw value into its type and range,
 * refusing with the value's origin; checks between settings belong to {@link SettingsLoader}.
 */
public enum Setting {
    QUEUES("QUEEN_S3_QUEUES", QueenSourceOptions.QUEUES),
    ENDPOINT("QUEEN_S3_ENDPOINT", JobOptions.ENDPOINT),
    REGION("QUEEN_S3_REGION", JobOptions.REGION),
    BUCKET("QUEEN_S3_BUCKET", JobOptions.BUCKET),
    ACCESS_KEY("QUEEN_S3_ACCESS_KEY", JobOptions.ACCESS_KEY),
    SECRET_KEY("QUEEN_S3_SECRET_KEY", JobOptions.SECRET_KEY),
    PREFIX("QUEEN_S3_PREFIX", LakeSinkOptions.PREFIX),
    PATH_STYLE("QUEEN_S3_PATH_STYLE", JobOptions.PATH_STYLE),
    SSE("QUEEN_S3_SSE", JobOptions.SSE),
    SSE_KMS_KEY_ID("QUEEN_S3_SSE_KMS_KEY_ID", JobOptions.SSE_KMS_KEY_ID),
    FORMAT("QUEEN_S3_FORMAT", LakeSinkOptions.FORMAT),
    COMPRESSION("QUEEN_S3_COMPRESSION", LakeSinkOptions.COMPRESSION),
    PARQUET_CODEC("QUEEN_S3_PARQUET_CODEC", LakeSinkOptions.PARQUET_CODEC),
    LAYOUT("QUEEN_S3_LAYOUT", LakeSinkOptions.LAYOUT),
    ALIGN("QUEEN_S3_ALIGN", WindowOptions.ALIGN),
    START("QUEEN_S3_START", QueenSourceOptions.START),
    TARGET_MB("QUEEN_S3_TARGET_MB", WindowOptions.TARGET_MB),
    MEMORY_MB("QUEEN_S3_MEMORY_MB", WindowOptions.MEMORY_MB),
    MAX_WINDOW_MS("QUEEN_S3_MAX_WINDOW_MS", QueenSourceOptions.MAX_WINDOW_MS),
    SINK("QUEEN_S3_SINK", QueenSourceOptions.SINK),
    SAFE_GUARD_MS("QUEEN_S3_SAFE_GUARD_MS", QueenSourceOptions.SAFE_GUARD_MS),
    DISCOVERY_INTERVAL_MS("QUEEN_S3_DISCOVERY_INTERVAL_MS", QueenSourceOptions.DISCOVERY_INTERVAL_MS),
    FETCH_CONCURRENCY("QUEEN_S3_FETCH_CONCURRENCY", QueenSourceOptions.FETCH_CONCURRENCY),
    COMMIT_CONCURRENCY("QUEEN_S3_COMMIT_CONCURRENCY", LakeSinkOptions.COMMIT_CONCURRENCY),
    COMMIT_KV_WRITES_PER_SECOND("QUEEN_S3_COMMIT_KV_WRITES_PER_SECOND", LakeSinkOptions.COMMIT_KV_WRITES_PER_SECOND),
    LEASE_TTL_MS("QUEEN_S3_LEASE_TTL_MS", QueenSourceOptions.LEASE_TTL_MS),
    CHECKPOINT_EVERY("QUEEN_S3_CHECKPOINT_EVERY", WindowOptions.CHECKPOINT_EVERY),
    MULTIPART_THRESHOLD_MB("QUEEN_S3_MULTIPART_THRESHOLD_MB", JobOptions.MULTIPART_THRESHOLD_MB),
    ICEBERG_CATALOG("QUEEN_LAKE_ICEBERG_CATALOG", JobOptions.ICEBERG_CATALOG),
    ICEBERG_URI("QUEEN_LAKE_ICEBERG_URI", JobOptions.ICEBERG_URI),
    ICEBERG_WAREHOUSE("QUEEN_LAKE_ICEBERG_WAREHOUSE", JobOptions.ICEBERG_WAREHOUSE),
    ICEBERG_NAMESPACE("QUEEN_LAKE_ICEBERG_NAMESPACE", JobOptions.ICEBERG_NAMESPACE),
    ICEBERG_TOKEN("QUEEN_LAKE_ICEBERG_TOKEN", JobOptions.ICEBERG_TOKEN),
    ICEBERG_CREDENTIAL("QUEEN_LAKE_ICEBERG_CREDENTIAL", JobOptions.ICEBERG_CREDENTIAL),
    ICEBERG_USER("QUEEN_LAKE_ICEBERG_USER", JobOptions.ICEBERG_USER),
    ICEBERG_PASSWORD("QUEEN_LAKE_ICEBERG_PASSWORD", JobOptions.ICEBERG_PASSWORD),
    ICEBERG_SNAPSHOT_MAX_AGE_MS("QUEEN_LAKE_ICEBERG_SNAPSHOT_MAX_AGE_MS", JobOptions.ICEBERG_SNAPSHOT_MAX_AGE_MS),
    ICEBERG_SNAPSHOTS_KEPT("QUEEN_LAKE_ICEBERG_SNAPSHOTS_KEPT", JobOptions.ICEBERG_SNAPSHOTS_KEPT),
    ICEBERG_SNAPSHOTS_MAX("QUEEN_LAKE_ICEBERG_SNAPSHOTS_MAX", JobOptions.ICEBERG_SNAPSHOTS_MAX),
    ICEBERG_METADATA_VERSIONS_KEPT("QUEEN_LAKE_ICEBERG_METADATA_VERSIONS_KEPT", JobOptions.ICEBERG_METADATA_VERSIONS_KEPT),
    ICEBERG_MANIFESTS_MERGE_AT("QUEEN_LAKE_ICEBERG_MANIFESTS_MERGE_AT", JobOptions.ICEBERG_MANIFESTS_MERGE_AT),
    ICEBERG_EXPIRE_EVERY_MS("QUEEN_LAKE_ICEBERG_EXPIRE_EVERY_MS", JobOptions.ICEBERG_EXPIRE_EVERY_MS),
    ICEBERG_ORPHAN_FILES_OLDER_THAN_MS("QUEEN_LAKE_ICEBERG_ORPHAN_FILES_OLDER_THAN_MS",
            JobOptions.ICEBERG_ORPHAN_FILES_OLDER_THAN_MS),
    ICEBERG_BACKFILL_WINDOWS("QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS", JobOptions.ICEBERG_BACKFILL_WINDOWS),
    INSTANCE("QUEEN_S3_INSTANCE", QueenSourceOptions.INSTANCE),
    QUEEN_URL("QUEEN_URL", QueenSourceOptions.QUEEN_URL),
    QUEEN_TOKEN("QUEEN_TOKEN", QueenSourceOptions.QUEEN_TOKEN),
    QUEEN_TENANT("QUEEN_TENANT", QueenSourceOptions.QUEEN_TENANT);

    /** A rule between options (a window size and its alignment) names them by their variables here. */
    static final OptionNames VARIABLES = option -> of(option).envName();

    private static final String S3_PREFIX = "QUEEN_S3_";
    /** queen-lake's own settings beyond the reference's (the Iceberg catalog). */
    private static final String LAKE_PREFIX = "QUEEN_LAKE_";
    private static final Map<QueenOption<?>, Setting> BY_OPTION = new HashMap<>();

    static {
        for (Setting s : values()) {
            BY_OPTION.put(s.option, s);
        }
    }

    private final String envName;
    private final QueenOption<?> option;

    Setting(String envName, QueenOption<?> option) {
        this.envName = envName;
        this.option = option;
    }

    /** The setting that maps a variable onto {@code option}. */
    static Setting of(QueenOption<?> option) {
        Setting setting = BY_OPTION.get(option);
        if (setting == null) {
            throw new IllegalArgumentException(option.key() + " is no setting of the job");
        }
        return setting;
    }

    /** The one definition: Flink key, type, default, description, check, secret flag. */
    public QueenOption<?> definition() {
        return option;
    }

    /** The environment variable, e.g. {@code QUEEN_S3_QUEUES}. */
    public String envName() {
        return envName;
    }

    /** The job argument without dashes, e.g. {@code queues}, {@code queen-url}: the variable without its prefix. */
    public String argName() {
        String tail = envName.startsWith(S3_PREFIX) ? envName.substring(S3_PREFIX.length())
                : envName.startsWith(LAKE_PREFIX) ? envName.substring(LAKE_PREFIX.length()) : envName;
        return tail.toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The option's Flink configuration key, e.g. {@code queen.s3.queues}, {@code queen.url}. */
    public String flinkKey() {
        return option.key();
    }

    /** The Flink option for {@link #flinkKey()}, read as text and validated here. */
    public ConfigOption<String> option() {
        return option.textOption();
    }

    /** The default as text, or null when there is none. */
    public String defaultValue() {
        return option.defaultText();
    }

    public boolean required() {
        return option.isRequired();
    }

    /** A secret is never logged nor echoed in a refusal. */
    public boolean secret() {
        return option.isSecret();
    }

    /** What a valid value looks like, for messages and the README. */
    public String allowed() {
        return option.allowed();
    }

    public String description() {
        return option.description();
    }

    /** Reads one raw value into the option's type, within its range, spellings or rule. */
    Object value(String raw, Origin origin) {
        return option.parse(raw, problem -> refusal(raw, origin, problem));
    }

    /** One line: the setting, where the value came from, the value, what is wrong and what is allowed. */
    SettingsException refusal(String raw, Origin origin, String problem) {
        return new SettingsException(envName + "=" + (secret() ? "<hidden>" : "'" + raw + "'") + " "
                + origin.describe(this) + " " + problem + ": allowed " + allowed() + ".");
    }
}
