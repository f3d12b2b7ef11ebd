package io.queenlake.job.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start probe against the dev broker (with a token) and the embedded S3 server, with the S3
 * file system configured from the settings by {@link LakeFileSystem}, as {@code LakeJob} does.
 */
class StartProbeTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @TempDir
    static Path dir;

    private static DevBroker broker;
    private static EmbeddedS3 s3;

    @BeforeAll
    static void startServers() throws Exception {
        broker = DevBroker.start(DevBrokerOptions.builder().token("right-token").build());
        s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir.resolve("s3")).accessKey("probe-key")
                .secretKey("probe-secret").bucket("lake").build());
        // Short S3A retries, as a cluster's config.yaml may set them: an outage fails the probe in seconds.
        Configuration cluster = new Configuration();
        cluster.setString("s3.attempts.maximum", "1");
        cluster.setString("s3.retry.limit", "1");
        cluster.setString("s3.retry.interval", "100ms");
        cluster.setString("s3.connection.establish.timeout", "2000");
        LakeFileSystem.initialize(cluster, settings("right-token", "probe-secret"));
    }

    @AfterAll
    static void stopServers() {
        s3.close();
        broker.close();
    }

    private static LakeSettings settings(String token, String secret) {
        Map<String, String> env = new HashMap<>();
        env.put("QUEEN_S3_QUEUES", "orders");
        env.put("QUEEN_S3_BUCKET", "lake");
        env.put("QUEEN_S3_ENDPOINT", s3.endpoint().toString());
        env.put("QUEEN_S3_REGION", EmbeddedS3.REGION);
        env.put("QUEEN_S3_PATH_STYLE", "true");
        env.put("QUEEN_S3_ACCESS_KEY", "probe-key");
        env.put("QUEEN_S3_SECRET_KEY", secret);
        env.put("QUEEN_S3_PREFIX", "probed");
        env.put("QUEEN_URL", broker.url().toString());
        env.put("QUEEN_TOKEN", token);
        return SettingsLoader.load(env, new String[0], new Configuration());
    }

    @Test
    void theBrokerAnswersWithASafeTimeWhenTheTokenIsRight() {
        assertThat(StartProbe.brokerSafeTime(settings("right-token", "probe-secret"), TIMEOUT)).isPositive();
    }

    @Test
    void aWrongTokenFailsTheProbeNamingTheBrokerAndWhatToCheck() {
        assertThatThrownBy(() -> StartProbe.brokerSafeTime(settings("wrong-token", "probe-secret"), TIMEOUT))
                .isInstanceOf(ProbeException.class)
                .hasMessageStartingWith("the broker at " + broker.url().toString().replaceAll("/$", "")
                        + " did not answer partitions/changed with a safeTime (")
                .hasMessageContaining("check QUEEN_URL / QUEEN_TOKEN")
                .hasMessageNotContaining("wrong-token")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void aBrokerThatIsNotThereFailsTheProbe() {
        Map<String, String> env = Map.of("QUEEN_S3_QUEUES", "orders", "QUEEN_S3_BUCKET", "lake",
                "QUEEN_URL", "http://127.0.0.1:1");
        LakeSettings nowhere = SettingsLoader.load(env, new String[0], new Configuration());
        assertThatThrownBy(() -> StartProbe.brokerSafeTime(nowhere, TIMEOUT))
                .isInstanceOf(ProbeException.class)
                .hasMessageContaining("the broker at http://127.0.0.1:1 did not answer partitions/changed")
                .hasMessageContaining("check QUEEN_URL / QUEEN_TOKEN");
    }

    @Test
    void theBucketProbeWritesUnderTheProbeFolderAndLeavesNothingBehind() throws Exception {
        StartProbe.bucket(settings("right-token", "probe-secret"), TIMEOUT);
        Path probeDir = s3.bucketDir().resolve("probed/_queen/probe");
        if (Files.exists(probeDir)) {
            try (Stream<Path> left = Files.list(probeDir)) {
                assertThat(left).isEmpty();
            }
        }
    }

    @Test
    void aStoppedS3ServerFailsTheBucketProbeSayingWhatToCheck() {
        s3.stop();
        try {
            assertThatThrownBy(() -> StartProbe.bucket(settings("right-token", "probe-secret"), TIMEOUT))
                    .isInstanceOf(ProbeException.class)
                    .hasMessageStartingWith("the bucket s3://lake could not take, give back, list and delete a probe"
                            + " object under probed/_queen/probe/ (")
                    .hasMessageContaining("check QUEEN_S3_ENDPOINT, QUEEN_S3_PATH_STYLE, QUEEN_S3_REGION, the"
                            + " credentials (static key pair), and that the bucket policy allows s3:PutObject,"
                            + " s3:GetObject, s3:ListBucket and s3:AbortMultipartUpload on probed/*, and"
                            + " s3:DeleteObject on probed/_queen/probe/*.")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").doesNotContain("probe-secret"));
        } finally {
            s3.restart();
        }
    }

    @Test
    void anS3EndpointThatRefusesTheConnectionFailsTheProbeInSecondsNamingTheSetting() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = free.getLocalPort();
        }
        Map<String, String> env = new HashMap<>(Map.of("QUEEN_S3_QUEUES", "orders", "QUEEN_S3_BUCKET", "lake",
                "QUEEN_S3_ENDPOINT", "http://127.0.0.1:" + port, "QUEEN_S3_PATH_STYLE", "true",
                "QUEEN_S3_ACCESS_KEY", "probe-key", "QUEEN_S3_SECRET_KEY", "probe-secret",
                "QUEEN_URL", broker.url().toString(), "QUEEN_TOKEN", "right-token"));
        LakeSettings refused = SettingsLoader.load(env, new String[0], new Configuration());
        long start = System.nanoTime();
        assertThatThrownBy(() -> StartProbe.check(refused))
                .isInstanceOf(ProbeException.class)
                .hasMessage("the S3 endpoint http://127.0.0.1:" + port + " refused the connection (nothing listens on"
                        + " 127.0.0.1:" + port + "): check the host and port in QUEEN_S3_ENDPOINT (--endpoint) and that"
                        + " the server is up.");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(StartProbe.CONNECT_TIMEOUT);
    }

    @Test
    void theS3ErrorCodeOfAFailureIsShownWhole() {
        String path = "s3://lake/" + "very-long-prefix/".repeat(20) + "_queen/probe/x.txt";
        IOException forbidden = new IOException(path + ": getFileStatus on " + path + ":"
                + " com.amazonaws.services.s3.model.AmazonS3Exception: Access Denied (Service: Amazon S3; Status Code:"
                + " 403; Error Code: AccessDenied; Request ID: 4442587FB7D0A2F9; S3 Extended Request ID: abc; Proxy: null)");

        assertThat(StartProbe.cause(forbidden)).doesNotContain("com.amazonaws")
                .endsWith("... (Status Code: 403; Error Code: AccessDenied)");
        assertThat(StartProbe.cause(new IOException("Forbidden (Service: Amazon S3; Status Code: 403; Error Code:"
                + " SignatureDoesNotMatch; Request ID: 1)"))).contains("Error Code: SignatureDoesNotMatch;");
    }

    @Test
    void aLocalFolderLakeIsProbedThroughTheSameFileSystemCalls() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("local"));
        Map<String, String> env = Map.of("QUEEN_S3_QUEUES", "orders", "QUEEN_S3_BUCKET", "lake",
                "QUEEN_S3_ENDPOINT", folder.toUri().toString());
        LakeSettings local = SettingsLoader.load(env, new String[0], new Configuration());
        StartProbe.bucket(local, TIMEOUT);
        assertThat(folder.resolve("lake/queen/_queen/probe")).isEmptyDirectory();
    }
}
