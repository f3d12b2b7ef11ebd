package io.queenlake.devstack.s3;

import static io.queenlake.devstack.s3.TestBytes.MIB;
import static io.queenlake.devstack.s3.TestBytes.concat;
import static io.queenlake.devstack.s3.TestBytes.random;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Flink's own {@code s3://} file system (flink-s3-fs-hadoop, loaded as a plugin) against
 * {@link EmbeddedS3}: plain writes and reads, and the {@link RecoverableWriter} mechanics the
 * exactly-once sink stages its objects with (multipart uploads completed only at commit).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FlinkS3RecoverableWriterITCase {

    @TempDir
    static Path dir;

    private static EmbeddedS3 s3;
    private static S3Client sdk;

    @BeforeAll
    static void startServerAndPlugin() {
        s3 = EmbeddedS3.start(EmbeddedS3Options.builder()
                .dir(dir).accessKey("k").secretKey("s").bucket("lake").build());
        sdk = SdkClients.of(s3);
        FlinkS3Plugin.initialize(s3);
    }

    @AfterAll
    static void stopServer() {
        sdk.close();
        s3.close();
    }

    @Test
    void theS3FileSystemComesFromThePluginFolderNotTheClassPath() throws Exception {
        assertThatThrownBy(() -> Class.forName("org.apache.flink.fs.s3hadoop.S3FileSystemFactory"))
                .isInstanceOf(ClassNotFoundException.class);
        assertThat(FileSystem.get(URI.create("s3://lake/")).getUri().getScheme()).isEqualTo("s3");
    }

    @Test
    void anObjectWrittenThroughTheS3SchemeIsReadBackAndLandsInTheFolder() throws Exception {
        org.apache.flink.core.fs.Path path = new org.apache.flink.core.fs.Path("s3://lake/fs/dt=2026-10-03/hello.bin");
        FileSystem fs = FileSystem.get(path.toUri());
        byte[] bytes = random(10, 100_000);

        try (FSDataOutputStream out = fs.create(path, FileSystem.WriteMode.NO_OVERWRITE)) {
            out.write(bytes);
        }

        assertThat(read(fs, path)).isEqualTo(bytes);
        assertThat(fs.getFileStatus(path).getLen()).isEqualTo(bytes.length);
        assertThat(s3.fileOf("fs/dt=2026-10-03/hello.bin")).hasBinaryContent(bytes);
    }

    @Test
    void aRecoverableStreamPublishesNothingUntilCommitThenTheWholeObject() throws Exception {
        String key = "staged/w-0000000001.jsonl.zst";
        org.apache.flink.core.fs.Path path = s3Path(key);
        RecoverableWriter writer = path.getFileSystem().createRecoverableWriter();
        byte[] bytes = random(11, 6 * MIB + 100);

        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(bytes);
        RecoverableFsDataOutputStream.Committer committer = out.closeForCommit();

        assertThat(path.getFileSystem().exists(path)).isFalse();
        assertThat(keysUnder("staged/")).isEmpty();
        assertThat(s3.fileOf(key)).doesNotExist();
        assertThat(uploadsFor(key)).hasSize(1);

        committer.commit();

        assertThat(read(path.getFileSystem(), path)).isEqualTo(bytes);
        assertThat(s3.fileOf(key)).hasBinaryContent(bytes);
        assertThat(keysUnder("staged/")).containsExactly(key);
        assertThat(uploadsFor(key)).isEmpty();
    }

    @Test
    void aPersistedStreamResumesFromItsRecoverableAndDropsWhatFollowedIt() throws Exception {
        String key = "resumed/w-0000000002.jsonl.zst";
        org.apache.flink.core.fs.Path path = s3Path(key);
        RecoverableWriter writer = path.getFileSystem().createRecoverableWriter();
        byte[] firstPart = random(12, 6 * MIB + 7);
        byte[] tail = random(19, 3000);
        byte[] lostInCrash = random(13, 1000);
        byte[] afterRestore = random(14, 2000);

        RecoverableFsDataOutputStream out = writer.open(path);
        // A write that reaches the 5 MiB part size becomes a part at once; the tail stays buffered.
        out.write(firstPart);
        out.write(tail);
        byte[] checkpointed = serialize(writer.getResumeRecoverableSerializer(), out.persist());
        out.write(lostInCrash);
        // The task dies here: the stream is abandoned, only the checkpointed recoverable survives.

        RecoverableWriter restored = path.getFileSystem().createRecoverableWriter();
        RecoverableWriter.ResumeRecoverable resumable =
                deserialize(restored.getResumeRecoverableSerializer(), checkpointed);
        RecoverableFsDataOutputStream resumed = restored.recover(resumable);
        resumed.write(afterRestore);
        resumed.closeForCommit().commit();

        byte[] expected = concat(firstPart, tail, afterRestore);
        assertThat(read(path.getFileSystem(), path)).isEqualTo(expected);
        assertThat(s3.fileOf(key)).hasBinaryContent(expected);
    }

    @Test
    void aPersistLeavesItsSmallTailAsAVisibleTempObjectBesideTheTargetUntilCleanedUp() throws Exception {
        String key = "tails/w-0000000003.jsonl.zst";
        org.apache.flink.core.fs.Path path = s3Path(key);
        RecoverableWriter writer = path.getFileSystem().createRecoverableWriter();

        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(random(15, 6 * MIB));
        out.write(random(20, 1000));
        RecoverableWriter.ResumeRecoverable resumable = out.persist();

        // The part of the stream below the 5 MiB part size is stored as a plain object, named
        // "_<name>_tmp_<uuid>" in the target's folder: a listing of the prefix sees it.
        List<String> tails = keysUnder("tails/");
        assertThat(tails).singleElement().asString().startsWith("tails/_w-0000000003.jsonl.zst_tmp_");
        assertThat(writer.requiresCleanupOfRecoverableState()).isTrue();

        out.closeForCommit().commit();
        assertThat(keysUnder("tails/")).containsExactlyInAnyOrder(key, tails.get(0));

        assertThat(writer.cleanupRecoverableState(resumable)).isTrue();
        assertThat(keysUnder("tails/")).containsExactly(key);
    }

    @Test
    void aCommitRecoverableCommittedAgainAfterRecoveryLeavesTheSameSingleObject() throws Exception {
        String key = "idempotent/w-0000000004.jsonl.zst";
        org.apache.flink.core.fs.Path path = s3Path(key);
        RecoverableWriter writer = path.getFileSystem().createRecoverableWriter();
        byte[] bytes = random(16, 6 * MIB + 3);

        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(bytes);
        RecoverableFsDataOutputStream.Committer committer = out.closeForCommit();
        byte[] checkpointed = serialize(writer.getCommitRecoverableSerializer(), committer.getRecoverable());
        committer.commit();

        // A restore from the checkpoint replays the commit, twice here (restore, then restore again).
        for (int replay = 0; replay < 2; replay++) {
            RecoverableWriter restored = path.getFileSystem().createRecoverableWriter();
            restored.recoverForCommit(deserialize(restored.getCommitRecoverableSerializer(), checkpointed))
                    .commitAfterRecovery();
        }

        assertThat(read(path.getFileSystem(), path)).isEqualTo(bytes);
        assertThat(keysUnder("idempotent/")).containsExactly(key);
        assertThat(uploadsFor(key)).isEmpty();
    }

    @Test
    void aCommitRecoverableCommittedOnlyAfterRecoveryPublishesTheObjectOnce() throws Exception {
        String key = "recovered/w-0000000005.jsonl.zst";
        org.apache.flink.core.fs.Path path = s3Path(key);
        RecoverableWriter writer = path.getFileSystem().createRecoverableWriter();
        byte[] bytes = random(17, 5 * MIB + 5 * MIB / 2);

        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(bytes);
        byte[] checkpointed = serialize(writer.getCommitRecoverableSerializer(), out.closeForCommit().getRecoverable());
        // The job dies after the checkpoint, before its commit: nothing is visible yet.
        assertThat(keysUnder("recovered/")).isEmpty();

        for (int replay = 0; replay < 2; replay++) {
            RecoverableWriter restored = path.getFileSystem().createRecoverableWriter();
            restored.recoverForCommit(deserialize(restored.getCommitRecoverableSerializer(), checkpointed))
                    .commitAfterRecovery();
        }

        assertThat(read(path.getFileSystem(), path)).isEqualTo(bytes);
        assertThat(keysUnder("recovered/")).containsExactly(key);
    }

    @Test
    void aStreamThatIsNeverCommittedIsInvisibleToAListing() throws Exception {
        String key = "abandoned/w-0000000006.jsonl.zst";
        org.apache.flink.core.fs.Path path = s3Path(key);
        RecoverableWriter writer = path.getFileSystem().createRecoverableWriter();

        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(random(18, 6 * MIB));
        out.closeForCommit();

        assertThat(keysUnder("abandoned/")).isEmpty();
        assertThat(path.getFileSystem().exists(path)).isFalse();
        assertThat(s3.bucketDir().resolve("abandoned")).doesNotExist();
        // It is still an incomplete multipart upload, which only an abort or a lifecycle rule removes.
        assertThat(uploadsFor(key)).hasSize(1);
    }

    @Test
    void aCommitWhileTheServerIsStoppedFailsWithinSecondsAndSucceedsOnceItIsBack() throws Exception {
        String key = "outage/w-0000000007.jsonl.zst";
        org.apache.flink.core.fs.Path path = s3Path(key);
        RecoverableWriter writer = path.getFileSystem().createRecoverableWriter();
        byte[] bytes = random(21, 6 * MIB);
        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(bytes);
        RecoverableFsDataOutputStream.Committer committer = out.closeForCommit();

        s3.stop();
        try {
            long started = System.nanoTime();
            assertThatThrownBy(committer::commit).isInstanceOf(IOException.class).hasMessageContaining("Connection refused");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));
        } finally {
            s3.restart();
        }
        committer.commit();

        assertThat(read(path.getFileSystem(), path)).isEqualTo(bytes);
        assertThat(uploadsFor(key)).isEmpty();
    }

    private static org.apache.flink.core.fs.Path s3Path(String key) {
        return new org.apache.flink.core.fs.Path("s3://" + s3.bucket() + "/" + key);
    }

    private static List<String> keysUnder(String prefix) {
        return sdk.listObjectsV2Paginator(b -> b.bucket(s3.bucket()).prefix(prefix))
                .contents().stream().map(S3Object::key).toList();
    }

    private static List<MultipartUpload> uploadsFor(String key) {
        return sdk.listMultipartUploads(b -> b.bucket(s3.bucket()).prefix(key)).uploads();
    }

    private static byte[] read(FileSystem fs, org.apache.flink.core.fs.Path path) throws IOException {
        try (FSDataInputStream in = fs.open(path)) {
            return in.readAllBytes();
        }
    }

    private static <T> byte[] serialize(SimpleVersionedSerializer<T> serializer, T value) throws IOException {
        return SimpleVersionedSerialization.writeVersionAndSerialize(serializer, value);
    }

    private static <T> T deserialize(SimpleVersionedSerializer<T> serializer, byte[] bytes) throws IOException {
        return SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, bytes);
    }
}
