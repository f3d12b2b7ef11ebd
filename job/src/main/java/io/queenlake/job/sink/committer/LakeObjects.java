package io.queenlake.job.sink.committer;

import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Intent;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.manifest.ManifestObject;
import io.queenlake.job.sink.LakeSinkConfig;
import io.queenlake.job.sink.committable.StagedObject;
import io.queenlake.job.sink.committable.WindowCommittable;
import io.queenlake.source.enumerator.start.LakeAhead;
import io.queenlake.source.enumerator.start.LakeRoot;
import io.queenlake.source.enumerator.start.ManifestTrail;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Optional;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The committer's bucket side: completes staged objects, reads and writes manifests, writes
 * checkpoint objects. Completion always goes through "recover, then commit after recovery" (the
 * path that accepts an object already published, as FileSink's committer does) and then checks
 * the object at the key has the manifest's length, so "already done" is proven, not assumed.
 * Every I/O failure is an {@link IOException} the committer retries.
 */
final class LakeObjects {

    private final LakeSinkConfig config;
    private final FileSystem fs;
    private final RecoverableWriter staging;
    private final LakeRoot lakeRoot;

    LakeObjects(LakeSinkConfig config) throws IOException {
        this.config = config;
        Path root = new Path(config.root());
        this.fs = root.getFileSystem();
        this.staging = fs.createRecoverableWriter();
        this.lakeRoot = new LakeRoot(config.root() + "/", config.prefix());
    }

    /** The window's queue, when its lake holds manifests beyond what its pointer and intent account for. */
    Optional<LakeAhead> lakeAhead(WindowCommittable window, String pointerKey, Optional<Committed> pointer,
            Optional<Intent> intent) throws IOException {
        return new ManifestTrail(lakeRoot, window.manifest().tenant()).check(window.queue(), pointerKey, pointer, intent);
    }

    /** Publishes every staged object of the window (idempotent) and checks each one's length. */
    void complete(WindowCommittable window) throws IOException {
        SimpleVersionedSerializer<RecoverableWriter.CommitRecoverable> handles = staging.getCommitRecoverableSerializer();
        for (int i = 0; i < window.staged().size(); i++) {
            StagedObject staged = window.staged().get(i);
            ManifestObject entry = window.manifest().objects().get(i);
            RecoverableWriter.CommitRecoverable handle = handles.deserialize(staged.recoverableVersion(), staged.recoverable());
            staging.recoverForCommit(handle).commitAfterRecovery();
            Path path = config.pathOf(staged.key());
            FileStatus status;
            try {
                status = fs.getFileStatus(path);
            } catch (FileNotFoundException missing) {
                throw new IllegalStateException("object " + staged.key() + " of window " + window.k() + " of queue '"
                        + window.queue() + "' is missing after its commit: the staged upload and the object are both gone;"
                        + " check the bucket's lifecycle rules and start the queue again from its pointer", missing);
            }
            if (status.getLen() != entry.bytes()) {
                throw new IllegalStateException("object " + staged.key() + " of window " + window.k() + " of queue '"
                        + window.queue() + "' is " + status.getLen() + " bytes where its manifest says " + entry.bytes()
                        + ": another writer wrote this key; stop it before restarting this job");
            }
        }
    }

    /** Manifest {@code k} of the window's queue, or empty when absent or unreadable. */
    Optional<Manifest> readManifest(WindowCommittable window) throws IOException {
        Path path = config.pathOf(sidecars(window).manifest(window.k()));
        byte[] body;
        try (FSDataInputStream in = fs.open(path)) {
            body = in.readAllBytes();
        } catch (FileNotFoundException absent) {
            return Optional.empty();
        }
        try {
            return Optional.of(ManifestJson.read(body));
        } catch (RuntimeException unreadable) {
            return Optional.empty();
        }
    }

    String manifestKey(WindowCommittable window) {
        return sidecars(window).manifest(window.k());
    }

    void writeManifest(Manifest stamped) throws IOException {
        String key = new SidecarKeys(config.prefix(), stamped.tenant(), stamped.queue()).manifest(stamped.k());
        write(key, ManifestJson.write(stamped));
    }

    void writeCheckpoint(WindowCommittable window, CheckpointDoc checkpoint) throws IOException {
        write(sidecars(window).checkpoint(checkpoint.k()), checkpoint.toObjectBytes());
    }

    private SidecarKeys sidecars(WindowCommittable window) {
        return new SidecarKeys(config.prefix(), window.manifest().tenant(), window.queue());
    }

    private void write(String key, byte[] body) throws IOException {
        try (FSDataOutputStream out = fs.create(config.pathOf(key), FileSystem.WriteMode.OVERWRITE)) {
            out.write(body);
        }
    }
}
