package io.queenlake.devstack.s3;

import static io.queenlake.devstack.s3.TestBytes.MIB;
import static io.queenlake.devstack.s3.TestBytes.concat;
import static io.queenlake.devstack.s3.TestBytes.random;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ConnectException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/** {@link EmbeddedS3}'s life cycle and its mapping of buckets and keys to folders and files. */
class EmbeddedS3Test {

    @TempDir
    Path dir;

    @Test
    void itStartsOnAFreeLoopbackPortWithinSecondsWithItsBucketAsAFolder() {
        long started = System.nanoTime();
        try (EmbeddedS3 s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir.resolve("new")).bucket("lake").build())) {
            // About a second on a quiet machine, cold JVM included; the bound leaves room for a busy
            // two-core box and still catches a hang (a DNS lookup, a graceful-stop wait).
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
            long restarted = System.nanoTime();
            s3.restart();
            assertThat(Duration.ofNanos(System.nanoTime() - restarted)).isLessThan(Duration.ofSeconds(5));
            assertThat(s3.port()).isPositive();
            assertThat(s3.endpoint()).hasToString("http://127.0.0.1:" + s3.port());
            assertThat(s3.bucket()).isEqualTo("lake");
            assertThat(s3.dir()).isEqualTo(dir.resolve("new"));
            assertThat(s3.bucketDir()).isEqualTo(dir.resolve("new/lake")).isDirectory();

            try (S3Client client = SdkClients.of(s3)) {
                client.headBucket(b -> b.bucket("lake"));
            }
        }
    }

    @Test
    void aStoppedServerRefusesConnectionsAndARestartServesTheSameObjectsOnTheSamePort() throws Exception {
        try (EmbeddedS3 s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir).build());
                S3Client client = SdkClients.of(s3)) {
            int port = s3.port();
            client.putObject(b -> b.bucket(s3.bucket()).key("before/stop.txt"), RequestBody.fromString("kept"));

            s3.stop();
            assertThat(s3.isRunning()).isFalse();
            assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(ConnectException.class);

            s3.restart();
            assertThat(s3.isRunning()).isTrue();
            assertThat(s3.port()).isEqualTo(port);
            assertThat(client.getObjectAsBytes(b -> b.bucket(s3.bucket()).key("before/stop.txt")).asUtf8String())
                    .isEqualTo("kept");
        }
    }

    @Test
    void aMultipartUploadStartedBeforeARestartCompletesAfterIt() {
        try (EmbeddedS3 s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir).build());
                S3Client client = SdkClients.of(s3)) {
            String bucket = s3.bucket();
            String key = "staged/across-restart.bin";
            byte[] first = random(30, 5 * MIB);
            byte[] last = random(31, 10);
            String uploadId = client.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
            String etag1 = client.uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(1),
                    RequestBody.fromBytes(first)).eTag();

            s3.restart();

            String etag2 = client.uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(2),
                    RequestBody.fromBytes(last)).eTag();
            client.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId).multipartUpload(m -> m.parts(
                    CompletedPart.builder().partNumber(1).eTag(etag1).build(),
                    CompletedPart.builder().partNumber(2).eTag(etag2).build())));

            assertThat(s3.fileOf(key)).hasBinaryContent(concat(first, last));
        }
    }

    @Test
    void everyObjectRequestIsCountedOnceUnderItsOperationAcrossARestart() {
        try (EmbeddedS3 s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir).build());
                S3Client client = SdkClients.notRetrying(s3)) {
            String bucket = s3.bucket();
            Map<String, Long> before = s3.requests();
            client.putObject(b -> b.bucket(bucket).key("a/one.txt"), RequestBody.fromString("one"));
            client.putObject(b -> b.bucket(bucket).key("a/two.txt"), RequestBody.fromString("two"));
            client.headObject(b -> b.bucket(bucket).key("a/one.txt"));
            client.getObjectAsBytes(b -> b.bucket(bucket).key("a/one.txt"));
            client.listObjectsV2(b -> b.bucket(bucket).prefix("a/"));
            s3.restart();
            String uploadId = client.createMultipartUpload(b -> b.bucket(bucket).key("a/big.bin")).uploadId();
            String etag = client.uploadPart(b -> b.bucket(bucket).key("a/big.bin").uploadId(uploadId).partNumber(1),
                    RequestBody.fromBytes(random(40, 10))).eTag();
            client.completeMultipartUpload(b -> b.bucket(bucket).key("a/big.bin").uploadId(uploadId)
                    .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag).build())));
            String aborted = client.createMultipartUpload(b -> b.bucket(bucket).key("a/aborted.bin")).uploadId();
            client.abortMultipartUpload(b -> b.bucket(bucket).key("a/aborted.bin").uploadId(aborted));
            client.deleteObject(b -> b.bucket(bucket).key("a/two.txt"));
            client.deleteObjects(b -> b.bucket(bucket).delete(d -> d.objects(
                    o -> o.key("a/one.txt"), o -> o.key("a/big.bin"), o -> o.key("a/never.txt"))));

            assertThat(s3.requestsSince(before)).containsExactlyEntriesOf(new TreeMap<>(Map.of("PutObject", 2L, "HeadObject", 1L,
                    "GetObject", 1L, "ListObjectsV2", 1L, "CreateMultipartUpload", 2L, "UploadPart", 1L,
                    "CompleteMultipartUpload", 1L, "AbortMultipartUpload", 1L, "DeleteObject", 1L,
                    "DeleteObjects", 1L)));
        }
    }

    @Test
    void aServerStartedOnAnExistingFolderServesWhatIsAlreadyThere() throws Exception {
        Path file = dir.resolve("lake/queen/_queen/windows/0000000001.json");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "{\"k\":1}");

        try (EmbeddedS3 s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir).bucket("lake").build());
                S3Client client = SdkClients.of(s3)) {
            assertThat(client.getObjectAsBytes(b -> b.bucket("lake").key("queen/_queen/windows/0000000001.json"))
                    .asUtf8String()).isEqualTo("{\"k\":1}");
            assertThat(s3.fileOf("queen/_queen/windows/0000000001.json")).isEqualTo(file);
        }
    }

    @Test
    void aSecondServerOnATakenPortFailsWithASentenceNamingThePort() {
        try (EmbeddedS3 first = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir.resolve("a")).build())) {
            EmbeddedS3Options clash = EmbeddedS3Options.builder().dir(dir.resolve("b")).port(first.port()).build();

            assertThatThrownBy(() -> EmbeddedS3.start(clash))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("127.0.0.1:" + first.port())
                    .hasMessageContaining("pass port 0 or a free port");
        }
    }

    @Test
    void stopAndCloseMayBeCalledTwiceAndRestartStartsAStoppedServer() {
        EmbeddedS3 s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir).build());
        s3.stop();
        s3.stop();
        s3.restart();
        assertThat(s3.isRunning()).isTrue();
        s3.close();
        s3.close();
        assertThat(s3.isRunning()).isFalse();
    }

    @Test
    void aKeyThatWouldClimbOutOfTheBucketHasNoFile() {
        try (EmbeddedS3 s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir).build())) {
            assertThatThrownBy(() -> s3.fileOf("../other-bucket/x"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'../other-bucket/x'");
            assertThatThrownBy(() -> s3.bucketDir(".."))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void badOptionsFailBeforeAnythingStartsWithASentenceNamingTheOption() {
        EmbeddedS3Options.Builder ok = EmbeddedS3Options.builder().dir(dir);

        assertThatThrownBy(() -> EmbeddedS3Options.builder().build())
                .isInstanceOf(NullPointerException.class).hasMessageContaining("dir(path)");
        assertThatThrownBy(() -> ok.port(70_000).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("port 70000");
        assertThatThrownBy(() -> EmbeddedS3Options.builder().dir(dir).secretKey(" ").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("secretKey");
        assertThatThrownBy(() -> EmbeddedS3Options.builder().dir(dir).accessKey("").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("accessKey");
        for (String bad : new String[] {"Lake", "la", "lake_1", "-lake", "lake.", "a..b"}) {
            assertThatThrownBy(() -> EmbeddedS3Options.builder().dir(dir).bucket(bad).build())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + bad + "'");
        }
        assertThat(EmbeddedS3Options.builder().dir(dir).bucket("queen-lake.dev1").build().bucket())
                .isEqualTo("queen-lake.dev1");
    }
}
