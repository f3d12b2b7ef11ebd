package io.queenlake.job.config;

import io.queenlake.source.QueenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The application's own options, beside the connector's ({@code QueenSourceOptions},
 * {@code WindowOptions}, {@code LakeSinkOptions}): where the bucket is and how it is reached, and the
 * Iceberg catalog. Each is a Flink option with its check, like the connector's; {@link Setting}
 * gives every option of both its environment variable and job argument.
 */
final class JobOptions {

    static final QueenOption<String> ENDPOINT = QueenOption.text(
            ConfigOptions.key("queen.s3.endpoint").stringType().noDefaultValue()
                    .withDescription("The S3 API endpoint; unset means AWS S3 in QUEEN_S3_REGION."),
            "http(s)://host[:port] with no path, or file:///dir (a local folder whose sub-folders are buckets)");

    static final QueenOption<String> REGION = QueenOption.text(
            ConfigOptions.key("queen.s3.region").stringType().noDefaultValue()
                    .withDescription("The region requests are signed for; unset lets the S3 file system decide."),
            Pattern.compile("[a-z0-9][a-z0-9-]{0,63}"), "a region name such as eu-west-1");

    static final QueenOption<String> BUCKET = QueenOption.text(
            ConfigOptions.key("queen.s3.bucket").stringType().noDefaultValue()
                    .withDescription("The lake's bucket."),
            Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]"),
            "3 to 63 of a-z 0-9 . - starting and ending with a letter or digit").required();

    static final QueenOption<String> ACCESS_KEY = QueenOption.text(
            ConfigOptions.key("queen.s3.access-key").stringType().noDefaultValue()
                    .withDescription("Static access key id; unset (with the secret) uses the standard AWS credential"
                            + " chain."),
            "an access key id, with QUEEN_S3_SECRET_KEY");

    static final QueenOption<String> SECRET_KEY = QueenOption.text(
            ConfigOptions.key("queen.s3.secret-key").stringType().noDefaultValue()
                    .withDescription("Static secret key; never logged."),
            "the secret of QUEEN_S3_ACCESS_KEY").secret();

    static final QueenOption<Boolean> PATH_STYLE = QueenOption.flag(
            ConfigOptions.key("queen.s3.path-style").booleanType().defaultValue(false)
                    .withDescription("Path-style addressing (/bucket/key) instead of virtual-host (bucket.host/key)."));

    static final QueenOption<String> SSE = QueenOption.choice(
            ConfigOptions.key("queen.s3.sse").stringType().noDefaultValue()
                    .withDescription("Server-side encryption of every object."),
            spellings("AES256", "AES256", "aws:kms", "aws:kms", "kms", "aws:kms"),
            "AES256 or aws:kms (or kms); unset sends no header");

    static final QueenOption<String> SSE_KMS_KEY_ID = QueenOption.text(
            ConfigOptions.key("queen.s3.sse-kms-key-id").stringType().noDefaultValue()
                    .withDescription("The KMS key for QUEEN_S3_SSE=aws:kms; unset uses the bucket's default key."),
            "a KMS key id or ARN, only with aws:kms");

    static final QueenOption<Integer> MULTIPART_THRESHOLD_MB = QueenOption.intRange(
            ConfigOptions.key("queen.s3.multipart-threshold-mb").intType().defaultValue(64)
                    .withDescription("Above this size (MiB) the S3 file system's own uploads go multipart"
                            + " (s3.multipart.threshold)."),
            5, 5_120);

    static final QueenOption<String> ICEBERG_CATALOG = QueenOption.choice(
            ConfigOptions.key("queen.lake.iceberg-catalog").stringType().defaultValue("none")
                    .withDescription("Also commit every window to an Iceberg table per queue through this catalog"
                            + " (needs QUEEN_S3_FORMAT=parquet)."),
            spellings("none", "none", "rest", "rest", "jdbc", "jdbc"), "none, rest or jdbc");

    static final QueenOption<String> ICEBERG_URI = QueenOption.text(
            ConfigOptions.key("queen.lake.iceberg-uri").stringType().noDefaultValue()
                    .withDescription("The catalog: the REST endpoint, or the JDBC URL (jdbc:postgresql://...,"
                            + " jdbc:sqlite:/path)."),
            "the REST catalog's http(s) URL, or a jdbc: URL");

    static final QueenOption<String> ICEBERG_WAREHOUSE = QueenOption.text(
            ConfigOptions.key("queen.lake.iceberg-warehouse").stringType().noDefaultValue()
                    .withDescription("Where table metadata goes (s3://bucket/iceberg), or the REST catalog's warehouse"
                            + " name; required for jdbc."),
            "a location (s3://bucket/iceberg) or a warehouse name");

    static final QueenOption<String> ICEBERG_NAMESPACE = QueenOption.text(
            ConfigOptions.key("queen.lake.iceberg-namespace").stringType().noDefaultValue()
                    .withDescription("The tables' namespace; unset means the lake prefix (QUEEN_S3_PREFIX)."),
            Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}"),
            "letters, digits, '_', '.' and '-' (a '.' separates levels)");

    static final QueenOption<String> ICEBERG_TOKEN = QueenOption.text(
            ConfigOptions.key("queen.lake.iceberg-token").stringType().noDefaultValue()
                    .withDescription("The REST catalog's bearer token."),
            "a bearer token of the REST catalog").secret();

    static final QueenOption<String> ICEBERG_CREDENTIAL = QueenOption.text(
            ConfigOptions.key("queen.lake.iceberg-credential").stringType().noDefaultValue()
                    .withDescription("OAuth2 client credentials for the REST catalog, exchanged for a token."),
            Pattern.compile("[^:\\s]+:\\S+"), "client_id:client_secret").secret();

    static final QueenOption<String> ICEBERG_USER = QueenOption.text(
            ConfigOptions.key("queen.lake.iceberg-user").stringType().noDefaultValue()
                    .withDescription("The JDBC catalog's user."),
            "a database user");

    static final QueenOption<String> ICEBERG_PASSWORD = QueenOption.text(
            ConfigOptions.key("queen.lake.iceberg-password").stringType().noDefaultValue()
                    .withDescription("The JDBC catalog's password."),
            "the password of QUEEN_LAKE_ICEBERG_USER").secret();

    static final QueenOption<Long> ICEBERG_SNAPSHOT_MAX_AGE_MS = QueenOption.longRange(
            ConfigOptions.key("queen.lake.iceberg-snapshot-max-age-ms").longType().defaultValue(3_600_000L)
                    .withDescription("Snapshots of a queue's table older than this expire, off the commit's path;"
                            + " their manifest lists and manifests are deleted, never a data file"
                            + " (history.expire.max-snapshot-age-ms)."),
            60_000, 2_592_000_000L);

    static final QueenOption<Integer> ICEBERG_SNAPSHOTS_KEPT = QueenOption.intRange(
            ConfigOptions.key("queen.lake.iceberg-snapshots-kept").intType().defaultValue(10)
                    .withDescription("The newest snapshots of a table that never expire, whatever their age"
                            + " (history.expire.min-snapshots-to-keep)."),
            1, 100_000);

    static final QueenOption<Integer> ICEBERG_SNAPSHOTS_MAX = QueenOption.intRange(
            ConfigOptions.key("queen.lake.iceberg-snapshots-max").intType().defaultValue(100)
                    .withDescription("At most this many snapshots stay in a table, whatever their age (at least"
                            + " QUEEN_LAKE_ICEBERG_SNAPSHOTS_KEPT): the current metadata, which every commit rewrites,"
                            + " stays under 100 KB with short windows. Past it, an expiry keeps the newest quarter at"
                            + " once. Unset, it is at least QUEEN_LAKE_ICEBERG_SNAPSHOTS_KEPT."),
            1, 100_000);

    static final QueenOption<Integer> ICEBERG_METADATA_VERSIONS_KEPT = QueenOption.intRange(
            ConfigOptions.key("queen.lake.iceberg-metadata-versions-kept").intType().defaultValue(10)
                    .withDescription("Old metadata.json files a table keeps; older ones are deleted after each commit"
                            + " (write.metadata.previous-versions-max, write.metadata.delete-after-commit.enabled)."),
            1, 1_000);

    static final QueenOption<Integer> ICEBERG_MANIFESTS_MERGE_AT = QueenOption.intRange(
            ConfigOptions.key("queen.lake.iceberg-manifests-merge-at").intType().defaultValue(100)
                    .withDescription("An append merges a table's small manifests into one once this many gathered"
                            + " (commit.manifest.min-count-to-merge)."),
            2, 10_000);

    static final QueenOption<Long> ICEBERG_EXPIRE_EVERY_MS = QueenOption.longRange(
            ConfigOptions.key("queen.lake.iceberg-expire-every-ms").longType().defaultValue(60_000L)
                    .withDescription("The least time between two snapshot expiries of one table."),
            0, 86_400_000);

    static final QueenOption<Long> ICEBERG_ORPHAN_FILES_OLDER_THAN_MS = QueenOption.longRange(
            ConfigOptions.key("queen.lake.iceberg-orphan-files-older-than-ms").longType().defaultValue(259_200_000L)
                    .withDescription("Iceberg's own files in a table's metadata folder (metadata.json, manifest lists,"
                            + " manifests) that no snapshot or kept metadata version names are deleted once older than"
                            + " this, at most hourly and off the commit's path; never a data file. 0 turns it off; else"
                            + " at least 3600000."),
            0, 2_592_000_000L);

    static final QueenOption<String> ICEBERG_BACKFILL_WINDOWS = QueenOption.text(
            ConfigOptions.key("queen.lake.iceberg-backfill-windows").stringType().defaultValue("all")
                    .withDescription("A queue's table the job creates (or finds without a window) while the lake"
                            + " already holds committed windows first gets them from their manifests, at most this many"
                            + " before the window it appends; the table records where its history starts"
                            + " (queen.<sink>.first-window)."),
            Pattern.compile("(?i)all|[0-9]{1,12}"), "all, or a number of windows (0 or more)");

    private JobOptions() {}

    /** Pairs of an accepted spelling and its canonical value, the canonical one first. */
    private static Map<String, String> spellings(String... pairs) {
        Map<String, String> spellings = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            spellings.put(pairs[i], pairs[i + 1]);
        }
        return spellings;
    }
}
