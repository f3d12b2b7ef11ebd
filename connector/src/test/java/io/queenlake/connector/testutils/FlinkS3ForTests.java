package io.queenlake.connector.testutils;

import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.FlinkS3Settings;
import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.PluginUtils;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Points Flink's {@code s3://} file system (flink-s3-fs-hadoop, loaded only as a plugin from
 * {@code FLINK_PLUGINS_DIR}, which the job pom sets to {@code target/flink-plugins}) at an
 * {@link EmbeddedS3}, and gives a standard AWS SDK client for reading the lake back.
 * {@code FileSystem.initialize} is JVM-wide: call it once per test class for its own server.
 */
public final class FlinkS3ForTests {

    private FlinkS3ForTests() {}

    public static void initialize(EmbeddedS3 s3) {
        Configuration conf = Configuration.fromMap(FlinkS3Settings.of(s3));
        // Fail fast while the server is down, so the job's own retries (not S3A's) carry the outage.
        conf.setString("s3.attempts.maximum", "2");
        conf.setString("s3.retry.limit", "2");
        conf.setString("s3.retry.interval", "200ms");
        conf.setString("s3.connection.establish.timeout", "2000");
        // As the clusters' configurations set it (flink-conf/): no delete of parent markers after each write.
        conf.setString("s3.directory.marker.retention", "keep");
        if (System.getenv("FLINK_PLUGINS_DIR") == null) {
            throw new IllegalStateException("FLINK_PLUGINS_DIR is not set: run the tests through Maven (surefire"
                    + " sets it to target/flink-plugins) or set it to a folder holding s3-fs-hadoop/.");
        }
        FileSystem.initialize(conf, PluginUtils.createPluginManagerFromRootFolder(conf));
    }

    public static S3Client sdk(EmbeddedS3 s3) {
        return S3Client.builder()
                .endpointOverride(s3.endpoint())
                .forcePathStyle(true)
                .region(Region.of(EmbeddedS3.REGION))
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(s3.accessKey(), s3.secretKey())))
                .httpClientBuilder(UrlConnectionHttpClient.builder()
                        .connectionTimeout(Duration.ofSeconds(2))
                        .socketTimeout(Duration.ofSeconds(30)))
                .build();
    }
}
