package io.queenlake.job.config;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * Every setting of the job, one entry each, with the reference sink's name, default and range
 * (queen-s3-notes §2.1). An entry yields its three spellings: the environment variable
 * ({@code QUEEN_S3_QUEUES}), the job argument ({@code --queues}, also {@code --QUEEN_S3_QUEUES}) and
 * the Flink configuration key ({@code queen.s3.queues}). It owns reading one raw value into its
 * type and range; checks between settings belong to {@link SettingsLoader}.
 */
public enum Setting {
    QUEUES("QUEEN_S3_QUEUES", Type.QUEUES, null, true, false,
            "* for every queue of the tenant, a,b, or a JSON array [\"a\",\"b\"]",
            "The queues to mirror."),
    ENDPOINT("QUEEN_S3_ENDPOINT", Type.TEXT, null, false, false,
            "http(s)://host[:port] with no path, or file:///dir (a local folder whose sub-folders are buckets)",
            "The S3 API endpoint; unset means AWS S3 in QUEEN_S3_REGION."),
    REGION("QUEEN_S3_REGION", Type.TEXT, null, false, false, "a region name such as eu-west-1",
            "The region requests are signed for; unset lets the S3 file system decide."),
    BUCKET("QUEEN_S3_BUCKET", Type.TEXT, null, true, false,
            "3 to 63 of a-z 0-9 . - starting and ending with a letter or digit", "The lake's bucket."),
    ACCESS_KEY("QUEEN_S3_ACCESS_KEY", Type.TEXT, null, false, false, "an access key id, with QUEEN_S3_SECRET_KEY",
            "Static access key id; unset (with the secret) uses the standard AWS credential chain."),
    SECRET_KEY("QUEEN_S3_SECRET_KEY", Type.TEXT, null, false, true, "the secret of QUEEN_S3_ACCESS_KEY",
            "Static secret key; never logged."),
    PREFIX("QUEEN_S3_PREFIX", Type.TEXT, "queen", false, false,
            "segments without //, . or .., control characters, # ? or \\ (outer slashes are dropped)",
            "The key prefix every lake object starts with."),
    PATH_STYLE("QUEEN_S3_PATH_STYLE", Type.FLAG, "false", false, false, "true or false",
            "Path-style addressing (/bucket/key) instead of virtual-host (bucket.host/key)."),
    SSE("QUEEN_S3_SSE", Type.CHOICE, null, false, false, "AES256 or aws:kms (or kms); unset sends no header",
            "Server-side encryption of every object.",
            "AES256", "AES256", "aws:kms", "aws:kms", "kms", "aws:kms"),
    SSE_KMS_KEY_ID("QUEEN_S3_SSE_KMS_KEY_ID", Type.TEXT, null, false, false, "a KMS key id or ARN, only with aws:kms",
            "The KMS key for QUEEN_S3_SSE=aws:kms; unset uses the bucket's default key."),
    FORMAT("QUEEN_S3_FORMAT", Type.CHOICE, "jsonl", false, false, "jsonl (or json, ndjson) or parquet",
            "The object format.", "jsonl", "jsonl", "json", "jsonl", "ndjson", "jsonl", "parquet", "parquet"),
    COMPRESSION("QUEEN_S3_COMPRESSION", Type.CHOICE, "zstd", false, false,
            "zstd (or zst), gzip (or gz), none (or off); JSONL only", "JSONL object compression.",
            "zstd", "zstd", "zst", "zstd", "gzip", "gzip", "gz", "gzip", "none", "none", "off", "none"),
    PARQUET_CODEC("QUEEN_S3_PARQUET_CODEC", Type.CHOICE, "zstd", false, false, "zstd or snappy; Parquet only",
            "Parquet column codec.", "zstd", "zstd", "snappy", "snappy"),
    LAYOUT("QUEEN_S3_LAYOUT", Type.CHOICE, "merged", false, false, "merged or per-partition",
            "One object per window, or one per partition and window.",
            "merged", "merged", "per-partition", "per-partition"),
    ALIGN("QUEEN_S3_ALIGN", Type.CHOICE, "hour", false, false, "hour, day or none",
            "The boundary no window crosses.", "hour", "hour", "day", "day", "none", "none"),
    START("QUEEN_S3_START", Type.CHOICE, "latest", false, false,
            "latest (or now, end) or earliest (or beginning)",
            "Where a queue with no commit pointer starts.",
            "latest", "latest", "now", "latest", "end", "latest", "earliest", "earliest", "beginning", "earliest"),
    TARGET_MB("QUEEN_S3_TARGET_MB", Type.NUMBER, "128", false, false, 1, 5_120,
            "Uncompressed weight (MiB) at which a window is cut."),
    MAX_WINDOW_MS("QUEEN_S3_MAX_WINDOW_MS", Type.NUMBER, "300000", false, false, 100, 86_400_000,
            "The window size in ms; it must divide the hour (align=hour) or the day (align=day)."),
    SINK("QUEEN_S3_SINK", Type.TEXT, "default", false, false, "1 to 64 of A-Z a-z 0-9 . _ -",
            "The sink name in the KV keys s3:<sink>:<queue>:*."),
    SAFE_GUARD_MS("QUEEN_S3_SAFE_GUARD_MS", Type.NUMBER, "5000", false, false, 0, 3_600_000,
            "Subtracted from the broker's safeTime before it closes windows."),
    DISCOVERY_INTERVAL_MS("QUEEN_S3_DISCOVERY_INTERVAL_MS", Type.NUMBER, "2000", false, false, 10, 3_600_000,
            "Cadence of partition discovery."),
    FETCH_CONCURRENCY("QUEEN_S3_FETCH_CONCURRENCY", Type.NUMBER, "4", false, false, 1, 256,
            "Fetch calls in flight per reader."),
    LEASE_TTL_MS("QUEEN_S3_LEASE_TTL_MS", Type.NUMBER, "30000", false, false, 1_000, 3_600_000,
            "Lease and presence TTL; refreshed every TTL/3."),
    CHECKPOINT_EVERY("QUEEN_S3_CHECKPOINT_EVERY", Type.NUMBER, "20", false, false, 1, 100_000,
            "Write a bucket checkpoint document every this many windows."),
    MULTIPART_THRESHOLD_MB("QUEEN_S3_MULTIPART_THRESHOLD_MB", Type.NUMBER, "64", false, false, 5, 5_120,
            "Above this size (MiB) the S3 file system's own uploads go multipart (s3.multipart.threshold)."),
    INSTANCE("QUEEN_S3_INSTANCE", Type.TEXT, null, false, false, "1 to 128 printable characters",
            "This job's name in leases; unset gives queen-lake@<host>."),
    QUEEN_URL("QUEEN_URL", Type.TEXT, "http://localhost:6632", false, false,
            "http(s)://host[:port] of one broker node", "The Queen broker (one node, not a balancer)."),
    QUEEN_TOKEN("QUEEN_TOKEN", Type.TEXT, null, false, true, "the bare token, with a read-write role",
            "Bearer token for the broker; never logged."),
    QUEEN_TENANT("QUEEN_TENANT", Type.TEXT, "00000000-0000-0000-0000-000000000001", false, false,
            "a UUID", "The broker tenant whose queues are mirrored.");

    /** How a raw value is read. */
    enum Type { TEXT, QUEUES, FLAG, NUMBER, CHOICE }

    private static final String S3_PREFIX = "QUEEN_S3_";

    private final String envName;
    private final Type type;
    private final String defaultValue;
    private final boolean required;
    private final boolean secret;
    private final long min;
    private final long max;
    private final String allowed;
    private final String description;
    private final Map<String, String> spellings;

    Setting(String envName, Type type, String defaultValue, boolean required, boolean secret, String allowed,
            String description, String... spellingPairs) {
        this(envName, type, defaultValue, required, secret, Long.MIN_VALUE, Long.MAX_VALUE, allowed, description,
                spellingPairs);
    }

    Setting(String envName, Type type, String defaultValue, boolean required, boolean secret, long min, long max,
            String description) {
        this(envName, type, defaultValue, required, secret, min, max, min + ".." + max, description);
    }

    Setting(String envName, Type type, String defaultValue, boolean required, boolean secret, long min, long max,
            String allowed, String description, String... spellingPairs) {
        this.envName = envName;
        this.type = type;
        this.defaultValue = defaultValue;
        this.required = required;
        this.secret = secret;
        this.min = min;
        this.max = max;
        this.allowed = allowed;
        this.description = description;
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i + 1 < spellingPairs.length; i += 2) {
            map.put(spellingPairs[i].toLowerCase(Locale.ROOT), spellingPairs[i + 1]);
        }
        this.spellings = Map.copyOf(map);
    }

    /** The environment variable, e.g. {@code QUEEN_S3_QUEUES}. */
    public String envName() {
        return envName;
    }

    /** The job argument without dashes, e.g. {@code queues}, {@code queen-url}. */
    public String argName() {
        String tail = envName.startsWith(S3_PREFIX) ? envName.substring(S3_PREFIX.length()) : envName;
        return tail.toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The Flink configuration key, e.g. {@code queen.s3.queues}, {@code queen.url}. */
    public String flinkKey() {
        String tail = envName.startsWith(S3_PREFIX) ? "s3." + envName.substring(S3_PREFIX.length())
                : envName.substring("QUEEN_".length());
        return "queen." + tail.toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The Flink option for {@link #flinkKey()}, read as text and validated here. */
    public ConfigOption<String> option() {
        return ConfigOptions.key(flinkKey()).stringType().noDefaultValue().withDescription(description);
    }

    /** The default as text, or null when there is none. */
    public String defaultValue() {
        return defaultValue;
    }

    public boolean required() {
        return required;
    }

    /** A secret is never logged nor echoed in a refusal. */
    public boolean secret() {
        return secret;
    }

    /** What a valid value looks like, for messages and the README. */
    public String allowed() {
        return allowed;
    }

    public String description() {
        return description;
    }

    Type type() {
        return type;
    }

    /** The value as a message may show it. */
    String shown(String raw) {
        return secret ? "<hidden>" : "'" + raw + "'";
    }

    /** Reads a whole number within this setting's range. */
    long number(String raw, Origin origin) {
        long value;
        try {
            value = Long.parseLong(raw.strip());
        } catch (NumberFormatException e) {
            throw refusal(raw, origin, "is not a whole number");
        }
        if (value < min || value > max) {
            throw refusal(raw, origin, "is out of range");
        }
        return value;
    }

    /** Reads {@code true/false} (also {@code 1/0}, {@code yes/no}, {@code on/off}). */
    boolean flag(String raw, Origin origin) {
        return switch (raw.strip().toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off" -> false;
            default -> throw refusal(raw, origin, "is not a boolean");
        };
    }

    /** Reads one of the accepted spellings and returns its canonical value. */
    String choice(String raw, Origin origin) {
        String canonical = spellings.get(raw.strip().toLowerCase(Locale.ROOT));
        if (canonical == null) {
            throw refusal(raw, origin, "is not an accepted value");
        }
        return canonical;
    }

    /** One line: the setting, where the value came from, the value, what is wrong and what is allowed. */
    SettingsException refusal(String raw, Origin origin, String problem) {
        return new SettingsException(envName + "=" + shown(raw) + " " + origin.describe(this) + " " + problem
                + ": allowed " + allowed + ".");
    }
}
