package io.queenlake.job.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import io.queenlake.devstack.s3.FlinkS3Settings;
import io.queenlake.devstack.s3.S3Request;
import io.queenlake.job.config.LakeSettings;
import io.queenlake.job.config.SettingsLoader;
import io.queenlake.job.testutils.TestWindows;
import java.nio.file.Path;
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
 * What the S3 file system sends with every upload, as the embedded server recorded it: with
 * {@code QUEEN_S3_SSE=AES256}, {@code x-amz-server-side-encryption} on every object put and
 * multipart creation of a sink job (staged windows, manifests, checkpoint documents); without it,
 * none. And which integrity headers go along (README, "Integrity").
 *
 * <p>{@code aws:kms} is not run here: the plugin's AWS SDK v1 refuses to send KMS headers over
 * plain HTTP ("HTTPS must be used ..."), and the embedded server speaks HTTP only;
 * {@code SettingsLoaderTest} pins the options it sets.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class EncryptionHeadersITCase {

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
        broker = DevBroker.start(DevBrokerOptions.builder().build());
    }

    @AfterAll
    static void stopServers() {
        s3.close();
        broker.close();
    }

    @Test
    void everyUploadCarriesAes256WhenSseIsAes256() throws Exception {
        List<S3Request> uploads = runWith("aes", "--sse", "AES256");
        assertThat(uploads).allSatisfy(r -> {
            assertThat(r.serverSideEncryption()).as("%s %s", r.operation(), r.key()).contains("AES256");
            assertThat(r.kmsKeyId()).isEmpty();
        });
    }

    @Test
    void noUploadCarriesAnEncryptionHeaderWithoutSse() throws Exception {
        List<S3Request> uploads = runWith("plain");
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
    private static List<S3Request> runWith(String name, String... sseArgs) throws Exception {
        List<String> args = new ArrayList<>(List.of("--queues", "orders", "--bucket", "lake", "--endpoint",
                s3.endpoint().toString(), "--path-style", "true", "--region", EmbeddedS3.REGION, "--access-key", "k",
                "--secret-key", "s"));
        args.addAll(List.of(sseArgs));
        LakeSettings settings = SettingsLoader.load(Map.of(), args.toArray(String[]::new), new Configuration());
        Map<String, String> options = new HashMap<>(FlinkS3Settings.of(s3));
        options.putAll(settings.fileSystemOptions());
        Configuration conf = Configuration.fromMap(options);
        FileSystem.initialize(conf, PluginUtils.createPluginManagerFromRootFolder(conf));

        int before = s3.writeRequests().size();
        String root = "s3://lake/sse-" + name;
        SinkJobs.run(SinkJobs.sink(root, broker.url()).sinkName("sse-" + name).build(),
                new TestWindows(List.of("orders"), 3, 4), 0);

        List<S3Request> ours = s3.writeRequests().subList(before, s3.writeRequests().size()).stream()
                .filter(r -> r.key().startsWith("sse-" + name + "/")).toList();
        List<S3Request> uploads = ours.stream().filter(S3Request::createsObject).toList();
        assertThat(uploads).extracting(S3Request::operation).contains("PutObject", "CreateMultipartUpload");
        assertThat(uploads).extracting(S3Request::key).anyMatch(k -> k.contains("/_queen/"));
        System.out.println("EncryptionHeadersITCase " + name + ": " + uploads.size() + " uploads, first "
                + uploads.get(0) + "; integrity headers seen: "
                + ours.stream().map(r -> r.checksumAlgorithm().or(() -> r.contentMd5().map(m -> "Content-MD5"))
                        .orElse("none") + " on " + r.operation()).distinct().toList());
        return uploads;
    }

}
