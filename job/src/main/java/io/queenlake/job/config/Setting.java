package io.queenlake.job.config;

import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.object.Format;
import io.queenlake.format.parquet.ParquetCodec;
import io.queenlake.connector.sink.LakeSinkOptions;
import io.queenlake.connector.window.WindowOptions;
import io.queenlake.source.QueenSourceOptions;
import io.queenlake.source.SettingSpec;
import java.util.regex.Pattern;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * Every setting of the job, in the README's order, with the reference sink's name, default and
 * range. Each entry holds its one {@link SettingSpec}: the source's options
 * come from {@link QueenSourceOptions} (which {@code QueenSourceBuilder} checks against), the
 * window operator's from {@link WindowOptions}, and the rest are defined here. An entry yields its
 * three spellings: the environment variable ({@code QUEEN_S3_QUEUES}), the job argument
 * ({@code --queues}, also {@code --QUEEN_S3_QUEUES}) and the Flink configuration key
 * ({@code queen.s3.queues}). It reads one raw value into its type and range, refusing with the
 * value's origin; checks between settings belong to {@link SettingsLoader}.
 */
public enum Setting {
    QUEUES(QueenSourceOptions.QUEUES),
    ENDPOINT(SettingSpec.text("QUEEN_S3_ENDPOINT")
            .allowed("http(s)://host[:port] with no path, or file:///dir (a local folder whose sub-folders are buckets)")
            .description("The S3 API endpoint; unset means AWS S3 in QUEEN_S3_REGION.")),
    REGION(SettingSpec.text("QUEEN_S3_REGION").pattern(Pattern.compile("[a-z0-9][a-z0-9-]{0,63}"))
            .allowed("a region name such as eu-west-1")
            .description("The region requests are signed for; unset lets the S3 file system decide.")),
    BUCKET(SettingSpec.text("QUEEN_S3_BUCKET").required().pattern(Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]"))
            .allowed("3 to 63 of a-z 0-9 . - starting and ending with a letter or digit")
            .description("The lake's bucket.")),
    ACCESS_KEY(SettingSpec.text("QUEEN_S3_ACCESS_KEY")
            .allowed("an access key id, with QUEEN_S3_SECRET_KEY")
            .description("Static access key id; unset (with the secret) uses the standard AWS credential chain.")),
    SECRET_KEY(SettingSpec.text("QUEEN_S3_SECRET_KEY").secret()
            .allowed("the secret of QUEEN_S3_ACCESS_KEY")
            .description("Static secret key; never logged.")),
    PREFIX(SettingSpec.text("QUEEN_S3_PREFIX").defaultValue("queen")
            .allowed("segments without //, . or .., control characters, # ? or \\ (outer slashes are dropped)")
            .description("The key prefix every lake object starts with.")),
    PATH_STYLE(SettingSpec.flag("QUEEN_S3_PATH_STYLE").defaultValue("false")
            .description("Path-style addressing (/bucket/key) instead of virtual-host (bucket.host/key).")),
    SSE(SettingSpec.choice("QUEEN_S3_SSE").spellings("AES256", "AES256", "aws:kms", "aws:kms", "kms", "aws:kms")
            .allowed("AES256 or aws:kms (or kms); unset sends no header")
            .description("Server-side encryption of every object.")),
    SSE_KMS_KEY_ID(SettingSpec.text("QUEEN_S3_SSE_KMS_KEY_ID")
            .allowed("a KMS key id or ARN, only with aws:kms")
            .description("The KMS key for QUEEN_S3_SSE=aws:kms; unset uses the bucket's default key.")),
    FORMAT(SettingSpec.choice("QUEEN_S3_FORMAT").defaultValue("jsonl")
            .spellings(Format.spellings())
            .allowed("jsonl (or json, ndjson) or parquet")
            .description("The object format.")),
    COMPRESSION(SettingSpec.choice("QUEEN_S3_COMPRESSION").defaultValue("zstd")
            .spellings(Compression.spellings())
            .allowed("zstd (or zst), gzip (or gz), none (or off); JSONL only")
            .description("JSONL object compression.")),
    PARQUET_CODEC(SettingSpec.choice("QUEEN_S3_PARQUET_CODEC").defaultValue("zstd")
            .spellings(ParquetCodec.spellings())
            .allowed("zstd or snappy; Parquet only")
            .description("Parquet column codec.")),
    LAYOUT(SettingSpec.choice("QUEEN_S3_LAYOUT").defaultValue("merged")
            .spellings("merged", "merged", "per-partition", "per-partition")
            .allowed("merged or per-partition")
            .description("One object per window, or one per partition and window.")),
    ALIGN(SettingSpec.choice("QUEEN_S3_ALIGN").defaultValue("hour")
            .spellings("hour", "hour", "day", "day", "none", "none")
            .allowed("hour, day or none")
            .description("The boundary no window crosses.")),
    START(QueenSourceOptions.START),
    TARGET_MB(SettingSpec.number("QUEEN_S3_TARGET_MB").defaultValue(128).range(1, 5_120)
            .description("Uncompressed weight (MiB) at which a window is cut.")),
    MEMORY_MB(WindowOptions.MEMORY_MB),
    MAX_WINDOW_MS(QueenSourceOptions.MAX_WINDOW_MS),
    SINK(QueenSourceOptions.SINK),
    SAFE_GUARD_MS(QueenSourceOptions.SAFE_GUARD_MS),
    DISCOVERY_INTERVAL_MS(QueenSourceOptions.DISCOVERY_INTERVAL_MS),
    FETCH_CONCURRENCY(QueenSourceOptions.FETCH_CONCURRENCY),
    COMMIT_CONCURRENCY(LakeSinkOptions.COMMIT_CONCURRENCY),
    COMMIT_KV_WRITES_PER_SECOND(LakeSinkOptions.COMMIT_KV_WRITES_PER_SECOND),
    LEASE_TTL_MS(QueenSourceOptions.LEASE_TTL_MS),
    CHECKPOINT_EVERY(WindowOptions.CHECKPOINT_EVERY),
    MULTIPART_THRESHOLD_MB(SettingSpec.number("QUEEN_S3_MULTIPART_THRESHOLD_MB").defaultValue(64).range(5, 5_120)
            .description("Above this size (MiB) the S3 file system's own uploads go multipart (s3.multipart.threshold).")),
    ICEBERG_CATALOG(SettingSpec.choice("QUEEN_LAKE_ICEBERG_CATALOG").defaultValue("none")
            .spellings("none", "none", "rest", "rest", "jdbc", "jdbc")
            .allowed("none, rest or jdbc")
            .description("Also commit every window to an Iceberg table per queue through this catalog (needs"
                    + " QUEEN_S3_FORMAT=parquet).")),
    ICEBERG_URI(SettingSpec.text("QUEEN_LAKE_ICEBERG_URI")
            .allowed("the REST catalog's http(s) URL, or a jdbc: URL")
            .description("The catalog: the REST endpoint, or the JDBC URL (jdbc:postgresql://..., jdbc:sqlite:/path).")),
    ICEBERG_WAREHOUSE(SettingSpec.text("QUEEN_LAKE_ICEBERG_WAREHOUSE")
            .allowed("a location (s3://bucket/iceberg) or a warehouse name")
            .description("Where table metadata goes (s3://bucket/iceberg), or the REST catalog's warehouse name;"
                    + " required for jdbc.")),
    ICEBERG_NAMESPACE(SettingSpec.text("QUEEN_LAKE_ICEBERG_NAMESPACE")
            .pattern(Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}"))
            .allowed("letters, digits, '_', '.' and '-' (a '.' separates levels)")
            .description("The tables' namespace; unset means the lake prefix (QUEEN_S3_PREFIX).")),
    ICEBERG_TOKEN(SettingSpec.text("QUEEN_LAKE_ICEBERG_TOKEN").secret()
            .allowed("a bearer token of the REST catalog")
            .description("The REST catalog's bearer token.")),
    ICEBERG_CREDENTIAL(SettingSpec.text("QUEEN_LAKE_ICEBERG_CREDENTIAL").secret()
            .pattern(Pattern.compile("[^:\\s]+:\\S+"))
            .allowed("client_id:client_secret")
            .description("OAuth2 client credentials for the REST catalog, exchanged for a token.")),
    ICEBERG_USER(SettingSpec.text("QUEEN_LAKE_ICEBERG_USER")
            .allowed("a database user")
            .description("The JDBC catalog's user.")),
    ICEBERG_PASSWORD(SettingSpec.text("QUEEN_LAKE_ICEBERG_PASSWORD").secret()
            .allowed("the password of QUEEN_LAKE_ICEBERG_USER")
            .description("The JDBC catalog's password.")),
    ICEBERG_SNAPSHOT_MAX_AGE_MS(SettingSpec.number("QUEEN_LAKE_ICEBERG_SNAPSHOT_MAX_AGE_MS").defaultValue(3_600_000)
            .range(60_000, 2_592_000_000L)
            .description("Snapshots of a queue's table older than this expire, off the commit's path; their manifest"
                    + " lists and manifests are deleted, never a data file (history.expire.max-snapshot-age-ms).")),
    ICEBERG_SNAPSHOTS_KEPT(SettingSpec.number("QUEEN_LAKE_ICEBERG_SNAPSHOTS_KEPT").defaultValue(10).range(1, 100_000)
            .description("The newest snapshots of a table that never expire, whatever their age"
                    + " (history.expire.min-snapshots-to-keep).")),
    ICEBERG_SNAPSHOTS_MAX(SettingSpec.number("QUEEN_LAKE_ICEBERG_SNAPSHOTS_MAX").defaultValue(100).range(1, 100_000)
            .description("At most this many snapshots stay in a table, whatever their age (at least"
                    + " QUEEN_LAKE_ICEBERG_SNAPSHOTS_KEPT): the current metadata, which every commit rewrites, stays"
                    + " under 100 KB with short windows. Past it, an expiry keeps the newest quarter at once. Unset, it"
                    + " is at least QUEEN_LAKE_ICEBERG_SNAPSHOTS_KEPT.")),
    ICEBERG_METADATA_VERSIONS_KEPT(SettingSpec.number("QUEEN_LAKE_ICEBERG_METADATA_VERSIONS_KEPT").defaultValue(10)
            .range(1, 1_000)
            .description("Old metadata.json files a table keeps; older ones are deleted after each commit"
                    + " (write.metadata.previous-versions-max, write.metadata.delete-after-commit.enabled).")),
    ICEBERG_MANIFESTS_MERGE_AT(SettingSpec.number("QUEEN_LAKE_ICEBERG_MANIFESTS_MERGE_AT").defaultValue(100)
            .range(2, 10_000)
            .description("An append merges a table's small manifests into one once this many gathered"
                    + " (commit.manifest.min-count-to-merge).")),
    ICEBERG_EXPIRE_EVERY_MS(SettingSpec.number("QUEEN_LAKE_ICEBERG_EXPIRE_EVERY_MS").defaultValue(60_000)
            .range(0, 86_400_000)
            .description("The least time between two snapshot expiries of one table.")),
    ICEBERG_ORPHAN_FILES_OLDER_THAN_MS(SettingSpec.number("QUEEN_LAKE_ICEBERG_ORPHAN_FILES_OLDER_THAN_MS")
            .defaultValue(259_200_000).range(0, 2_592_000_000L)
            .description("Iceberg's own files in a table's metadata folder (metadata.json, manifest lists, manifests)"
                    + " that no snapshot or kept metadata version names are deleted once older than this, at most hourly"
                    + " and off the commit's path; never a data file. 0 turns it off; else at least 3600000.")),
    ICEBERG_BACKFILL_WINDOWS(SettingSpec.text("QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS").defaultValue("all")
            .pattern(Pattern.compile("(?i)all|[0-9]{1,12}"))
            .allowed("all, or a number of windows (0 or more)")
            .description("A queue's table the job creates (or finds without a window) while the lake already holds"
                    + " committed windows first gets them from their manifests, at most this many before the window it"
                    + " appends; the table records where its history starts (queen.<sink>.first-window).")),
    INSTANCE(QueenSourceOptions.INSTANCE),
    QUEEN_URL(QueenSourceOptions.QUEEN_URL),
    QUEEN_TOKEN(QueenSourceOptions.QUEEN_TOKEN),
    QUEEN_TENANT(QueenSourceOptions.QUEEN_TENANT);

    private final SettingSpec spec;

    Setting(SettingSpec spec) {
        this.spec = spec;
    }

    Setting(SettingSpec.Builder definition) {
        this(definition.build());
    }

    /** The one definition: name, default, range or choices, rule, description, secret flag. */
    public SettingSpec spec() {
        return spec;
    }

    /** The environment variable, e.g. {@code QUEEN_S3_QUEUES}. */
    public String envName() {
        return spec.envName();
    }

    /** The job argument without dashes, e.g. {@code queues}, {@code queen-url}. */
    public String argName() {
        return spec.argName();
    }

    /** The Flink configuration key, e.g. {@code queen.s3.queues}, {@code queen.url}. */
    public String flinkKey() {
        return spec.flinkKey();
    }

    /** The Flink option for {@link #flinkKey()}, read as text and validated here. */
    public ConfigOption<String> option() {
        return ConfigOptions.key(flinkKey()).stringType().noDefaultValue().withDescription(description());
    }

    /** The default as text, or null when there is none. */
    public String defaultValue() {
        return spec.defaultValue();
    }

    public boolean required() {
        return spec.required();
    }

    /** A secret is never logged nor echoed in a refusal. */
    public boolean secret() {
        return spec.secret();
    }

    /** What a valid value looks like, for messages and the README. */
    public String allowed() {
        return spec.allowed();
    }

    public String description() {
        return spec.description();
    }

    /** Reads a whole number within this setting's range. */
    long number(String raw, Origin origin) {
        return spec.number(raw, problem -> refusal(raw, origin, problem));
    }

    /** Reads {@code true/false} (also {@code 1/0}, {@code yes/no}, {@code on/off}). */
    boolean flag(String raw, Origin origin) {
        return spec.flag(raw, problem -> refusal(raw, origin, problem));
    }

    /** Reads one of the accepted spellings and returns its canonical value. */
    String choice(String raw, Origin origin) {
        return spec.choice(raw, problem -> refusal(raw, origin, problem));
    }

    /** Returns text that passes this setting's rule (a pattern, a length). */
    String text(String raw, Origin origin) {
        return spec.text(raw, problem -> refusal(raw, origin, problem));
    }

    /** One line: the setting, where the value came from, the value, what is wrong and what is allowed. */
    SettingsException refusal(String raw, Origin origin, String problem) {
        return new SettingsException(envName() + "=" + spec.shown(raw) + " " + origin.describe(this) + " " + problem
                + ": allowed " + allowed() + ".");
    }
}
