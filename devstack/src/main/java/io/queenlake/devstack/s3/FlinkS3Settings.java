package io.queenlake.devstack.s3;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Flink configuration entries that point the {@code s3://} file system (the flink-s3-fs-hadoop
 * plugin) at an {@link EmbeddedS3}. Plain strings, so this module needs no Flink on its class path:
 * callers put them into a Flink {@code Configuration} before {@code FileSystem.initialize}.
 */
public final class FlinkS3Settings {

    private FlinkS3Settings() {}

    /**
     * Endpoint, path-style access, region and the server's key pair, under Flink's {@code s3.*} names
     * (the plugin mirrors every {@code s3.x} to Hadoop's {@code fs.s3a.x}), plus short retries: S3A's
     * defaults keep a call against a stopped server retrying for many minutes (a commit was still
     * retrying after 16), while a loopback server is either back within a second or down on purpose.
     */
    public static Map<String, String> of(EmbeddedS3 s3) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("s3.endpoint", s3.endpoint().toString());
        settings.put("s3.path.style.access", "true");
        // The plugin's S3A (Hadoop 3.3.4, AWS SDK v1) signs for this region, as every other client of the server does.
        settings.put("s3.endpoint.region", EmbeddedS3.REGION);
        settings.put("s3.access-key", s3.accessKey());
        settings.put("s3.secret-key", s3.secretKey());
        // No SDK-level retries under S3A's own; three S3A retries from 100 ms: a failure surfaces in about a second.
        settings.put("s3.attempts.maximum", "1");
        settings.put("s3.retry.limit", "3");
        settings.put("s3.retry.interval", "100ms");
        return Map.copyOf(settings);
    }
}
