package io.queenlake.job.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.connector.sink.SinkJobs;
import io.queenlake.connector.testutils.FlinkS3ForTests;
import io.queenlake.connector.testutils.TestWindows;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import io.queenlake.devstack.s3.FlinkS3Settings;
import io.queenlake.devstack.s3.S3Request;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.PluginUtils;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the S3 file system sends with every upload of the lake sink, configured from the job's own
 * settings ({@link LakeSettings#fileSystemOptions}): with {@code QUEEN_S3_SSE=AES256},
 * {@code x-amz-server-side-encryption} on every object put and multipart creation (staged windows,
 * manifests, checkpoint documents), without it none, and which integrity headers go along (README,
 * "Integrity"); with {@code aws:kms} and a key id, both KMS headers, over HTTPS (the plugin's AWS
 * SDK v1 sends them over HTTPS only).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ServerSideEncryptionITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @TempDir
    static Path dir;

    private static EmbeddedS3 s3;
    private static DevBroker broker;

    @BeforeAll
    static void startServers() throws Exception {
        s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir.resolve("s3")).accessKey("k").secretKey("s")
                .bucket("lake").build());
        FlinkS3ForTests.initialize(s3);
        broker = DevBroker.start(DevBrokerOptions.builder().build());
    }

    @AfterAll
    static void stopServers() {
        s3.close();
        broker.close();
    }

    @Test
    void everyUploadCarriesTheKmsHeadersWhenSseIsAwsKmsOverHttps() throws Exception {
        // The plugin's AWS SDK v1 sends KMS headers over HTTPS only: a server of its own, with a self-signed key.
        Path keyStore = dir.resolve("s3-tls.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "s3", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=127.0.0.1",
                "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore", keyStore.toString(),
                "-storepass", "changeit", "-keypass", "changeit").inheritIO().start();
        assertThat(keytool.waitFor()).as("keytool").isZero();
        try (EmbeddedS3 https = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir.resolve("s3-tls")).accessKey("k")
                .secretKey("s").bucket("lake").tls(keyStore, "changeit").build())) {
            // The AWS SDK's own SSL context trusts the default trust store: the server's key store.
            System.setProperty("javax.net.ssl.trustStore", keyStore.toString());
            System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
            System.setProperty("javax.net.ssl.trustStorePassword", "changeit");

            List<S3Request> uploads = runWith(https, "kms", "--sse", "aws:kms", "--sse-kms-key-id",
                    "arn:aws:kms:eu-west-1:111122223333:key/lake");
            assertThat(uploads).allSatisfy(r -> {
                assertThat(r.serverSideEncryption()).as("%s %s", r.operation(), r.key()).contains("aws:kms");
                assertThat(r.kmsKeyId()).as("%s %s", r.operation(), r.key())
                        .contains("arn:aws:kms:eu-west-1:111122223333:key/lake");
            });
        } finally {
            System.clearProperty("javax.net.ssl.trustStore");
            System.clearProperty("javax.net.ssl.trustStoreType");
            System.clearProperty("javax.net.ssl.trustStorePassword");
        }
    }

    @Test
    void everyUploadCarriesAes256WhenSseIsAes256() throws Exception {
        List<S3Request> uploads = runWith(s3, "aes", "--sse", "AES256");
        assertThat(uploads).allSatisfy(r -> {
            assertThat(r.serverSideEncryption()).as("%s %s", r.operation(), r.key()).contains("AES256");
            assertThat(r.kmsKeyId()).isEmpty();
        });
    }

    @Test
    void noUploadCarriesAnEncryptionHeaderWithoutSse() throws Exception {
        List<S3Request> uploads = runWith(s3, "plain");
        assertThat(uploads).allSatisfy(r -> {
            assertThat(r.serverSideEncryption()).as("%s %s", r.operation(), r.key()).isEmpty();
            assertThat(r.kmsKeyId()).isEmpty();
        });
        // The plugin's S3A (Hadoop 3.3.4, AWS SDK v1) sends no x-amz-checksum-* header: README, "Integrity".
        assertThat(uploads).allSatisfy(r -> assertThat(r.checksumSha256()).isEmpty());
    }

    /**
     * Runs a sink job with the S3 file system configured from these job arguments, as the job's
     * own settings give it, and returns the object puts and multipart creations it caused under
     * its root (after checking there are some of both, and some under {@code _queen/}).
     */
    private static List<S3Request> runWith(EmbeddedS3 server, String name, String... sseArgs) throws Exception {
        List<String> args = new ArrayList<>(List.of("--queues", "orders", "--bucket", "lake", "--endpoint",
                server.endpoint().toString(), "--path-style", "true", "--region", EmbeddedS3.REGION, "--access-key", "k",
                "--secret-key", "s"));
        args.addAll(List.of(sseArgs));
        LakeSettings settings = SettingsLoader.load(Map.of(), args.toArray(String[]::new), new Configuration());
        Map<String, String> options = new HashMap<>(FlinkS3Settings.of(server));
        options.putAll(settings.fileSystemOptions());
        Configuration conf = Configuration.fromMap(options);
        int before = server.writeRequests().size();
        try {
            FileSystem.initialize(conf, PluginUtils.createPluginManagerFromRootFolder(conf));
            SinkJobs.run(SinkJobs.sink("s3://lake/sse-" + name, broker.url()).sinkName("sse-" + name)
                            .stagingRetryFor(Duration.ofSeconds(5)).build(),
                    new TestWindows(List.of("orders"), 3, 4), 0);
        } finally {
            FlinkS3ForTests.initialize(s3); // as the other tests of this JVM expect it
        }

        List<S3Request> ours = server.writeRequests().subList(before, server.writeRequests().size()).stream()
                .filter(r -> r.key().startsWith("sse-" + name + "/")).toList();
        List<S3Request> uploads = ours.stream().filter(S3Request::createsObject).toList();
        assertThat(uploads).extracting(S3Request::operation).contains("PutObject", "CreateMultipartUpload");
        assertThat(uploads).extracting(S3Request::key).anyMatch(k -> k.contains("/_queen/"));
        System.out.println("ServerSideEncryptionITCase " + name + ": " + uploads.size() + " uploads, first "
                + uploads.get(0) + "; integrity headers seen: "
                + ours.stream().map(r -> r.checksumAlgorithm().or(() -> r.contentMd5().map(m -> "Content-MD5"))
                        .orElse("none") + " on " + r.operation()).distinct().toList());
        return uploads;
    }
}
