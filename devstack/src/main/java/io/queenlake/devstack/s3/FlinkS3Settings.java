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

    /** Endpoint, path-style access, region and the server's key pair, under Flink's {@code s3.*} names. */
    public static Map<String, String> of(EmbeddedS3 s3) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("s3.endpoint", s3.endpoint().toString());
        settings.put("s3.path.style.access", "true");
        // Without a region the S3A client asks AWS for the bucket's region; the server answers any.
        settings.put("s3.endpoint.region", EmbeddedS3.REGION);
        settings.put("s3.access-key", s3.accessKey());
        settings.put("s3.secret-key", s3.secretKey());
        return Map.copyOf(settings);
    }
}
