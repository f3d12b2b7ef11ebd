package io.queenlake.devstack.catalog;

import io.queenlake.devstack.s3.EmbeddedS3;
import java.net.URI;
import java.nio.file.Path;
import java.util.Objects;

/**
 * What a {@link DevCatalog} is started with: the loopback port, the folder that keeps its tables
 * (or none, to keep them in memory), and the S3 bucket its warehouse lives in, with the key pair to
 * reach it. Checked when built, so a bad value fails before any socket or database is opened.
 *
 * @param port TCP port on 127.0.0.1; 0 picks a free one
 * @param dataDir folder for the catalog's SQLite file, created if missing; null keeps the catalog in
 *     memory, so its tables vanish at {@link DevCatalog#close()} (their files stay in the bucket)
 * @param s3Endpoint the S3 server, addressed path-style (the embedded S3 server serves no other)
 * @param bucket the bucket the warehouse lives in
 * @param accessKey SigV4 access key id the catalog signs its metadata writes with
 * @param secretKey its secret
 * @param warehouse where new tables go, an {@code s3://} location in {@code bucket}
 */
public record DevCatalogOptions(
        int port, Path dataDir, URI s3Endpoint, String bucket, String accessKey, String secretKey, String warehouse) {

    public DevCatalogOptions {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(
                    "DevCatalog port " + port + " is out of range: use 0 (any free port) or 1-65535.");
        }
        if (dataDir != null) {
            dataDir = dataDir.toAbsolutePath().normalize();
        }
        Objects.requireNonNull(s3Endpoint, "DevCatalog needs the S3 server its warehouse is on: set s3Endpoint(uri).");
        if (!("http".equals(s3Endpoint.getScheme()) || "https".equals(s3Endpoint.getScheme())) || s3Endpoint.getHost() == null) {
            throw new IllegalArgumentException("DevCatalog S3 endpoint '" + s3Endpoint
                    + "' is not an http(s) URL: write it as http://127.0.0.1:9000.");
        }
        require("bucket", bucket);
        require("accessKey", accessKey);
        require("secretKey", secretKey);
        if (warehouse == null) {
            warehouse = "s3://" + bucket + "/iceberg";
        }
        // S3FileIO reads s3://bucket/key; a warehouse in another bucket would need keys this catalog lacks.
        if (!warehouse.startsWith("s3://" + bucket + "/") && !warehouse.equals("s3://" + bucket)) {
            throw new IllegalArgumentException("DevCatalog warehouse '" + warehouse
                    + "' is not in bucket '" + bucket + "': write it as s3://" + bucket + "/iceberg.");
        }
        warehouse = warehouse.replaceAll("/+$", "");
    }

    /** Keeps the secret key out of logs and failure messages. */
    @Override
    public String toString() {
        return "DevCatalogOptions[port=" + port + ", dataDir=" + (dataDir == null ? "(in memory)" : dataDir)
                + ", s3Endpoint=" + s3Endpoint + ", bucket=" + bucket + ", accessKey=" + accessKey
                + ", secretKey=***, warehouse=" + warehouse + "]";
    }

    public static Builder builder() {
        return new Builder();
    }

    private static void require(String name, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("DevCatalog " + name + " is empty: set " + name + "(...) to a non-blank value.");
        }
    }

    /** Builds {@link DevCatalogOptions}; only the S3 endpoint has no default. */
    public static final class Builder {
        private int port = 0;
        private Path dataDir;
        private URI s3Endpoint;
        private String bucket = "lake";
        private String accessKey = "devstack";
        private String secretKey = "devstack-secret";
        private String warehouse;

        private Builder() {}

        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /** Keep the catalog in {@code dataDir}/catalog.db, so a restart on the same folder keeps the tables. */
        public Builder dataDir(Path dataDir) {
            this.dataDir = dataDir;
            return this;
        }

        public Builder s3Endpoint(URI s3Endpoint) {
            this.s3Endpoint = s3Endpoint;
            return this;
        }

        public Builder bucket(String bucket) {
            this.bucket = bucket;
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

        /** An {@code s3://bucket/prefix} location; default {@code s3://<bucket>/iceberg}. */
        public Builder warehouse(String warehouse) {
            this.warehouse = warehouse;
            return this;
        }

        /** The endpoint, bucket and key pair of a running embedded S3 server. */
        public Builder s3(EmbeddedS3 s3) {
            return s3Endpoint(s3.endpoint()).bucket(s3.bucket()).accessKey(s3.accessKey()).secretKey(s3.secretKey());
        }

        public DevCatalogOptions build() {
            return new DevCatalogOptions(port, dataDir, s3Endpoint, bucket, accessKey, secretKey, warehouse);
        }
    }
}
