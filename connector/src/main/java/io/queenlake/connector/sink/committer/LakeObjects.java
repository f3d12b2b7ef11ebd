package io.queenlake.connector.sink.committer;

import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Intent;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.manifest.ManifestObject;
import io.queenlake.connector.sink.LakeSinkConfig;
import io.queenlake.connector.sink.S3Outages;
import io.queenlake.connector.sink.committable.StagedObject;
import io.queenlake.connector.sink.committable.WindowCommittable;
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
 * path that accepts an object already published, as FileSink's committer does), and the object at
 * the key is proven to have the manifest's length, not assumed: by Flink's S3 committer on
 * {@code s3://}, by a status read elsewhere.
 * Every I/O failure is an {@link IOException} the committer retries; every call is watched
 * ({@link S3Outages}), so an outage is one WARN per queue however S3A retries inside it.
 */
final class LakeObjects {

    private final LakeSinkConfig config;
    private final FileSystem fs;
    private final RecoverableWriter staging;
    private final LakeRoot lakeRoot;
    private final S3Outages outages;
    /**
     * On S3 the completion itself proves the object: a completed multipart upload is exactly its
     * staged parts, and Flink's S3 committer, finding the upload already completed on a retry,
     * checks the object's length against the staged length and fails otherwise. So no HEAD per
     * object there; a {@code file://} lake (tests, the demo) is checked after the rename.
     */
    private final boolean completionProvesLength;

    LakeObjects(LakeSinkConfig config) throws IOException {
        this.config = config;
        Path root = new Path(config.root());
        this.fs = root.getFileSystem();
        this.staging = fs.createRecoverableWriter();
        this.lakeRoot = new LakeRoot(config.root() + "/", config.prefix());
        this.outages = S3Outages.of(config);
        String scheme = root.toUri().getScheme();
        this.completionProvesLength = scheme != null && scheme.toLowerCase(java.util.Locale.ROOT).startsWith("s3");
    }

    /** The window's queue, when its lake holds manifests beyond what its pointer and intent account for. */
    Optional<LakeAhead> lakeAhead(WindowCommittable window, String pointerKey, Optional<Committed> pointer,
            Optional<Intent> intent) throws IOException {
        return watched(window.queue(), "checking the manifests above the pointer",
                () -> new ManifestTrail(lakeRoot, window.manifest().tenant()).check(window.queue(), pointerKey, pointer,
                        intent));
    }

    /** Publishes every staged object of the window (idempotent) and checks each one's length. */
    void complete(WindowCommittable window) throws IOException {
        watched(window.queue(), "completing the objects of window " + window.k(), () -> {
            completeNow(window);
            return null;
        });
    }

    private void completeNow(WindowCommittable window) throws IOException {
        SimpleVersionedSerializer<RecoverableWriter.CommitRecoverable> handles = staging.getCommitRecoverableSerializer();
        for (int i = 0; i < window.staged().size(); i++) {
            StagedObject staged = window.staged().get(i);
            ManifestObject entry = window.manifest().objects().get(i);
            RecoverableWriter.CommitRecoverable handle = handles.deserialize(staged.recoverableVersion(), staged.recoverable());
            staging.recoverForCommit(handle).commitAfterRecovery();
            if (completionProvesLength) {
                continue;
            }
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
        return findManifest(window).manifest();
    }

    /** What manifest {@code k}'s key holds: nothing, a manifest, or bytes that do not parse. */
    FoundManifest findManifest(WindowCommittable window) throws IOException {
        return watched(window.queue(), "reading manifest " + window.k(), () -> findManifestNow(window));
    }

    private FoundManifest findManifestNow(WindowCommittable window) throws IOException {
        Path path = config.pathOf(sidecars(window).manifest(window.k()));
        byte[] body;
        try (FSDataInputStream in = fs.open(path)) {
            body = in.readAllBytes();
        } catch (FileNotFoundException absent) {
            return FoundManifest.absent();
        }
        try {
            return FoundManifest.of(ManifestJson.read(body));
        } catch (RuntimeException unreadable) {
            return FoundManifest.unreadable(unreadable.getMessage() == null ? unreadable.toString() : unreadable.getMessage());
        }
    }

    String manifestKey(WindowCommittable window) {
        return sidecars(window).manifest(window.k());
    }

    void writeManifest(Manifest stamped) throws IOException {
        String key = new SidecarKeys(config.prefix(), stamped.tenant(), stamped.queue()).manifest(stamped.k());
        watched(stamped.queue(), "writing manifest " + stamped.k(), () -> write(key, ManifestJson.write(stamped)));
    }

    void writeCheckpoint(WindowCommittable window, CheckpointDoc checkpoint) throws IOException {
        watched(window.queue(), "writing checkpoint " + checkpoint.k(),
                () -> write(sidecars(window).checkpoint(checkpoint.k()), checkpoint.toObjectBytes()));
    }

    /**
     * One bucket call of {@code queue} under the outage watchdog: S3A retries inside a call, so a
     * bucket down shows as a call that does not return long before any exception reaches here.
     */
    private <T> T watched(String queue, String what, S3Outages.IoCall<T> call) throws IOException {
        return outages.run(queue, what, call);
    }

    private SidecarKeys sidecars(WindowCommittable window) {
        return new SidecarKeys(config.prefix(), window.manifest().tenant(), window.queue());
    }

    private Void write(String key, byte[] body) throws IOException {
        try (FSDataOutputStream out = fs.create(config.pathOf(key), FileSystem.WriteMode.OVERWRITE)) {
            out.write(body);
        }
        return null;
    }
}
