package io.queenlake.devstack.s3;

import static io.queenlake.devstack.s3.TestBytes.MIB;
import static io.queenlake.devstack.s3.TestBytes.concat;
import static io.queenlake.devstack.s3.TestBytes.random;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.NoSuchUploadException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/** A standard S3 client (AWS SDK v2, path-style, SigV4) sees {@link EmbeddedS3} as S3. */
class AwsSdkAgainstEmbeddedS3Test {

    private static final String LAKE_KEY = "queen/tenant=00000000-0000-0000-0000-000000000001/queue=orders"
            + "/dt=2026-10-03/hour=06/w-0000000042-1791007200000000-1791007500000000.jsonl.zst";

    @TempDir
    static Path dir;

    private static EmbeddedS3 s3;
    private static S3Client client;

    @BeforeAll
    static void startServer() {
        s3 = EmbeddedS3.start(EmbeddedS3Options.builder()
                .dir(dir).accessKey("k").secretKey("s").bucket("lake").build());
        client = SdkClients.of(s3);
    }

    @AfterAll
    static void stopServer() {
        client.close();
        s3.close();
    }

    @Test
    void anObjectPutIsReadBackByteForByte() {
        byte[] bytes = random(1, 70_000);
        client.putObject(b -> b.bucket("lake").key("get/one.bin"), RequestBody.fromBytes(bytes));

        assertThat(client.getObjectAsBytes(b -> b.bucket("lake").key("get/one.bin")).asByteArray())
                .isEqualTo(bytes);
    }

    @Test
    void aMissingObjectIsNoSuchKey() {
        assertThatThrownBy(() -> client.getObjectAsBytes(b -> b.bucket("lake").key("get/never-written")))
                .isInstanceOf(NoSuchKeyException.class);
    }

    @Test
    void aListingWithAPrefixReturnsExactlyTheKeysUnderItEvenWithEqualsAndPercent() {
        List<String> inside = List.of(
                "list/tenant=t%401/queue=caff%C3%A8/dt=2026-10-03/hour=06/a.jsonl",
                "list/tenant=t%401/queue=caff%C3%A8/dt=2026-10-03/hour=07/b.jsonl",
                "list/tenant=t%401/queue=caff%C3%A8/x=100%25.json");
        List<String> outside = List.of(
                "list/tenant=t%401/queue=caffe/dt=2026-10-03/hour=06/c.jsonl",
                "list/tenant=t%402/queue=caff%C3%A8/d.jsonl");
        Stream.concat(inside.stream(), outside.stream()).forEach(key ->
                client.putObject(b -> b.bucket("lake").key(key), RequestBody.fromString(key)));

        List<String> listed = client.listObjectsV2Paginator(
                        b -> b.bucket("lake").prefix("list/tenant=t%401/queue=caff%C3%A8/").maxKeys(2))
                .contents().stream().map(S3Object::key).toList();

        assertThat(listed).containsExactlyElementsOf(inside);
        assertThat(client.getObjectAsBytes(b -> b.bucket("lake").key(inside.get(2))).asUtf8String())
                .isEqualTo(inside.get(2));
    }

    @Test
    void anObjectLandsAsAFileUnderTheSameNestedFoldersAsItsKey() throws Exception {
        byte[] bytes = "{\"offset\":1}\n".getBytes(StandardCharsets.UTF_8);
        client.putObject(b -> b.bucket("lake").key(LAKE_KEY), RequestBody.fromBytes(bytes));

        Path file = dir.resolve("lake/queen/tenant=00000000-0000-0000-0000-000000000001/queue=orders"
                + "/dt=2026-10-03/hour=06/w-0000000042-1791007200000000-1791007500000000.jsonl.zst");
        assertThat(file).isRegularFile().hasBinaryContent(bytes);
        assertThat(s3.fileOf(LAKE_KEY)).isEqualTo(file);
        assertThat(s3.bucketDir()).isEqualTo(dir.resolve("lake")).isDirectory();
    }

    @Test
    void aCompletedMultipartUploadIsTheConcatenationOfItsParts() throws Exception {
        String key = "multipart/done.bin";
        byte[] first = random(2, 5 * MIB);
        byte[] second = random(3, 5 * MIB + 17);
        byte[] last = random(4, 1000);
        String uploadId = client.createMultipartUpload(b -> b.bucket("lake").key(key)).uploadId();

        List<CompletedPart> parts = List.of(
                uploadPart(key, uploadId, 1, first), uploadPart(key, uploadId, 2, second), uploadPart(key, uploadId, 3, last));
        assertThat(keysUnder("multipart/")).doesNotContain(key);

        String etag = client.completeMultipartUpload(b -> b.bucket("lake").key(key).uploadId(uploadId)
                .multipartUpload(m -> m.parts(parts))).eTag();

        byte[] whole = concat(first, second, last);
        assertThat(etag.replace("\"", "")).endsWith("-3");
        assertThat(client.getObjectAsBytes(b -> b.bucket("lake").key(key)).asByteArray()).isEqualTo(whole);
        assertThat(s3.fileOf(key)).hasBinaryContent(whole);
        assertThat(client.listMultipartUploads(b -> b.bucket("lake").prefix(key)).uploads()).isEmpty();
    }

    @Test
    void anAbortedMultipartUploadLeavesNoObjectAndNoFile() throws Exception {
        String key = "multipart/aborted.bin";
        String uploadId = client.createMultipartUpload(b -> b.bucket("lake").key(key)).uploadId();
        uploadPart(key, uploadId, 1, random(5, 5 * MIB));
        assertThat(client.listMultipartUploads(b -> b.bucket("lake").prefix(key)).uploads())
                .extracting(u -> u.uploadId()).containsExactly(uploadId);

        client.abortMultipartUpload(b -> b.bucket("lake").key(key).uploadId(uploadId));

        assertThat(client.listMultipartUploads(b -> b.bucket("lake").prefix(key)).uploads()).isEmpty();
        assertThat(keysUnder("multipart/")).doesNotContain(key);
        assertThat(s3.fileOf(key)).doesNotExist();
        assertThat(filesContaining("aborted.bin")).isEmpty();
        assertThatThrownBy(() -> client.completeMultipartUpload(b -> b.bucket("lake").key(key).uploadId(uploadId)
                        .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag("x").build()))))
                .isInstanceOf(NoSuchUploadException.class);
    }

    @Test
    void aPartBelowFiveMebibytesThatIsNotTheLastFailsTheCompletionAsS3Does() {
        String key = "multipart/too-small.bin";
        String uploadId = client.createMultipartUpload(b -> b.bucket("lake").key(key)).uploadId();
        List<CompletedPart> parts = List.of(
                uploadPart(key, uploadId, 1, random(6, 5 * MIB - 1)),
                uploadPart(key, uploadId, 2, random(7, 10)));

        assertThatThrownBy(() -> client.completeMultipartUpload(b -> b.bucket("lake").key(key).uploadId(uploadId)
                        .multipartUpload(m -> m.parts(parts))))
                .isInstanceOfSatisfying(S3Exception.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("EntityTooSmall");
                });
        assertThat(s3.fileOf(key)).doesNotExist();
        client.abortMultipartUpload(b -> b.bucket("lake").key(key).uploadId(uploadId));
    }

    @Test
    void completingAnUploadAgainAnswersTheSameObjectUntilTheKeyIsOverwritten() {
        String key = "multipart/twice.bin";
        byte[] first = random(8, 5 * MIB);
        byte[] last = random(9, 10);
        String uploadId = client.createMultipartUpload(b -> b.bucket("lake").key(key)).uploadId();
        List<CompletedPart> parts = List.of(uploadPart(key, uploadId, 1, first), uploadPart(key, uploadId, 2, last));
        String etag = client.completeMultipartUpload(b -> b.bucket("lake").key(key).uploadId(uploadId)
                .multipartUpload(m -> m.parts(parts))).eTag();

        String again = client.completeMultipartUpload(b -> b.bucket("lake").key(key).uploadId(uploadId)
                .multipartUpload(m -> m.parts(parts))).eTag();

        assertThat(again).isEqualTo(etag);
        assertThat(s3.fileOf(key)).hasBinaryContent(concat(first, last));

        client.putObject(b -> b.bucket("lake").key(key), RequestBody.fromString("someone else"));
        assertThatThrownBy(() -> client.completeMultipartUpload(b -> b.bucket("lake").key(key).uploadId(uploadId)
                        .multipartUpload(m -> m.parts(parts))))
                .isInstanceOf(NoSuchUploadException.class);
        assertThat(s3.fileOf(key)).hasContent("someone else");
    }

    @Test
    void anIncompleteUploadIsKeptInHiddenEntriesAtTheBucketRootNotBesideItsKey() throws Exception {
        String key = "incomplete/dt=2026-10-03/hour=06/w-0000000007.jsonl.zst";
        String uploadId = client.createMultipartUpload(b -> b.bucket("lake").key(key)).uploadId();
        uploadPart(key, uploadId, 1, random(10, 5 * MIB));

        assertThat(keysUnder("incomplete/")).isEmpty();
        assertThat(s3.bucketDir().resolve("incomplete")).doesNotExist();
        try (Stream<Path> root = Files.list(s3.bucketDir())) {
            assertThat(root.map(p -> p.getFileName().toString()).filter(name -> name.contains(uploadId)))
                    .isNotEmpty().allMatch(name -> name.startsWith("."));
        }

        client.abortMultipartUpload(b -> b.bucket("lake").key(key).uploadId(uploadId));
        try (Stream<Path> root = Files.list(s3.bucketDir())) {
            assertThat(root.map(p -> p.getFileName().toString())).noneMatch(name -> name.contains(uploadId));
        }
    }

    @Test
    void aWrongSecretKeyIsRefusedWith403() {
        try (S3Client intruder = SdkClients.signedWith(s3, "k", "not-the-secret")) {
            assertThatThrownBy(() -> intruder.listObjectsV2(b -> b.bucket("lake")))
                    .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
            assertThatThrownBy(() -> intruder.putObject(b -> b.bucket("lake").key("intruder.txt"),
                            RequestBody.fromString("x")))
                    .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
        }
        assertThat(s3.fileOf("intruder.txt")).doesNotExist();
    }

    private static CompletedPart uploadPart(String key, String uploadId, int partNumber, byte[] body) {
        String etag = client.uploadPart(b -> b.bucket("lake").key(key).uploadId(uploadId).partNumber(partNumber),
                RequestBody.fromBytes(body)).eTag();
        return CompletedPart.builder().partNumber(partNumber).eTag(etag).build();
    }

    private static List<String> keysUnder(String prefix) {
        return client.listObjectsV2Paginator(b -> b.bucket("lake").prefix(prefix))
                .contents().stream().map(S3Object::key).toList();
    }

    private static List<Path> filesContaining(String fragment) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.getFileName().toString().contains(fragment)).toList();
        }
    }
}
