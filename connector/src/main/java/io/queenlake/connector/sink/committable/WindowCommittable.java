package io.queenlake.connector.sink.committable;

import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestObject;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.annotation.Internal;

/**
 * What the writer hands the committer for one window: the manifest it will publish (not stamped
 * with {@code committedAt} yet: the committer stamps it), the staged objects in the manifest's
 * object order, and the checkpoint document to publish after the pointer when the window carries
 * one. Everything needed to finish the window after a crash, and nothing the KV pointer does not
 * decide.
 */
@Internal
public record WindowCommittable(Manifest manifest, List<StagedObject> staged, Optional<CheckpointDoc> checkpoint) {

    public WindowCommittable {
        Objects.requireNonNull(manifest, "manifest");
        Objects.requireNonNull(checkpoint, "checkpoint");
        staged = List.copyOf(staged);
        if (manifest.isStamped()) {
            throw new IllegalArgumentException("window " + manifest.k() + " of queue '" + manifest.queue()
                    + "' is handed to the committer with a committedAt already stamped; only the committer stamps it");
        }
        List<ManifestObject> objects = manifest.objects();
        if (objects.size() != staged.size()) {
            throw new IllegalArgumentException("window " + manifest.k() + " of queue '" + manifest.queue() + "' names "
                    + objects.size() + " objects but stages " + staged.size());
        }
        for (int i = 0; i < objects.size(); i++) {
            if (!objects.get(i).key().equals(staged.get(i).key())) {
                throw new IllegalArgumentException("window " + manifest.k() + " of queue '" + manifest.queue()
                        + "' stages " + staged.get(i).key() + " where its manifest names " + objects.get(i).key());
            }
        }
        checkpoint.ifPresent(cp -> {
            if (cp.k() != manifest.k() || cp.tEnd() != manifest.tEnd()) {
                throw new IllegalArgumentException("checkpoint k=" + cp.k() + " tEnd=" + cp.tEnd()
                        + " does not belong to window k=" + manifest.k() + " of queue '" + manifest.queue() + "'");
            }
        });
    }

    public String queue() {
        return manifest.queue();
    }

    public long k() {
        return manifest.k();
    }

    public long tStart() {
        return manifest.tStart();
    }

    public long tEnd() {
        return manifest.tEnd();
    }

    @Override
    public String toString() {
        return "WindowCommittable{queue=" + queue() + " k=" + k() + " [" + tStart() + ", " + tEnd() + ") objects="
                + staged.size() + (checkpoint.isPresent() ? " +checkpoint" : "") + "}";
    }
}
