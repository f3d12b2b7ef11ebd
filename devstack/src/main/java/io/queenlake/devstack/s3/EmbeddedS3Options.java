package io.queenlake.devstack.s3;

import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What an {@link EmbeddedS3} is started with: the loopback port, the folder that holds the buckets,
 * the SigV4 key pair and the bucket created at start. Checked when built, so a bad value fails
 * before any socket is opened.
 *
 * @param port TCP port on 127.0.0.1; 0 picks a free one at the first start
 * @param dir folder whose sub-folders are the buckets; created if missing
 * @param accessKey SigV4 access key id clients must sign with
 * @param secretKey SigV4 secret key clients must sign with
 * @param bucket bucket created at start (kept if the folder already has it)
 * @param tls the key store to serve HTTPS with instead of HTTP, or null for HTTP
 * @param latencyMs how long every object request waits before it is served, as a real bucket's
 *     20-50 ms round trip would; 0 for none
 */
public record EmbeddedS3Options(int port, Path dir, String accessKey, String secretKey, String bucket, Tls tls,
        long latencyMs) {

    /** A JKS or PKCS12 key store holding the server's key and certificate (for 127.0.0.1), and its password. */
    public record Tls(Path keyStore, String password) {
        public Tls {
            Objects.requireNonNull(keyStore, "keyStore");
            Objects.requireNonNull(password, "password");
        }

        @Override
        public String toString() {
            return "Tls[keyStore=" + keyStore + ", password=***]";
        }
    }

    /** Path-style S3 bucket names: 3-63 of lower-case letters, digits, '.' and '-', no dot at the ends. */
    private static final Pattern BUCKET_NAME = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

    public EmbeddedS3Options {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(
                    "EmbeddedS3 port " + port + " is out of range: use 0 (any free port) or 1-65535.");
        }
        Objects.requireNonNull(dir, "EmbeddedS3 needs a folder for its buckets: set dir(path).");
        dir = dir.toAbsolutePath().normalize();
        if (latencyMs < 0) {
            throw new IllegalArgumentException(
                    "EmbeddedS3 latency " + latencyMs + " ms is negative: use 0 (none) or a number of milliseconds.");
        }
        requireKey("accessKey", accessKey);
        requireKey("secretKey", secretKey);
        if (bucket == null || !BUCKET_NAME.matcher(bucket).matches() || bucket.contains("..")) {
            throw new IllegalArgumentException("EmbeddedS3 bucket name '" + bucket
                    + "' is not a valid S3 bucket name: use 3-63 lower-case letters, digits, '.' or '-'.");
        }
    }

    /** Keeps the secret key out of logs and failure messages. */
    @Override
    public String toString() {
        return "EmbeddedS3Options[port=" + port + ", dir=" + dir + ", accessKey=" + accessKey
                + ", secretKey=***, bucket=" + bucket + (tls == null ? "" : ", " + tls)
                + (latencyMs == 0 ? "" : ", latencyMs=" + latencyMs) + "]";
    }

    public static Builder builder() {
        return new Builder();
    }

    private static void requireKey(String name, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("EmbeddedS3 " + name + " is empty: set " + name + "(...) to a non-blank value.");
        }
    }

    /** Builds {@link EmbeddedS3Options}; everything but {@code dir} has a usable default. */
    public static final class Builder {
        private int port = 0;
        private Path dir;
        private String accessKey = "devstack";
        private String secretKey = "devstack-secret";
        private Tls tls;
        private String bucket = "lake";
        private long latencyMs;

        private Builder() {}

        public Builder port(int port) {
            this.port = port;
            return this;
        }

        public Builder dir(Path dir) {
            this.dir = dir;
            return this;
        }

        public Builder accessKey(String accessKey) {
            this.accessKey = accessKey;
            return this;
        }

        public Builder secretKey(String secretKey) {
            this.secretKey = secretKey;
            return this;
        }

        public Builder bucket(String bucket) {
            this.bucket = bucket;
            return this;
        }

        /** Serve HTTPS with this key store (its certificate must name 127.0.0.1) instead of HTTP. */
        public Builder tls(Path keyStore, String password) {
            this.tls = new Tls(keyStore, password);
            return this;
        }

        /** Every object request waits this long before it is served (a real S3 takes 20-50 ms); 0, the default, for none. */
        public Builder latencyMs(long latencyMs) {
            this.latencyMs = latencyMs;
            return this;
        }

        public EmbeddedS3Options build() {
            return new EmbeddedS3Options(port, dir, accessKey, secretKey, bucket, tls, latencyMs);
        }
    }
}
