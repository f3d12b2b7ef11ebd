package io.queenlake.job.cli;

import io.queenlake.broker.kv.Intents;
import io.queenlake.format.manifest.Committed;
import io.queenlake.job.config.LakeSettings;
import io.queenlake.source.enumerator.start.LakeAhead;
import io.queenlake.source.enumerator.start.LakeRoot;
import io.queenlake.source.enumerator.start.ManifestTrail;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Optional;
import org.apache.flink.configuration.Configuration;

/**
 * {@code status --lake}: each queue's manifests in the bucket against its commit pointer, one
 * existence check per queue as the job makes before it starts one ({@link ManifestTrail}). A
 * queue whose lake is ahead of its pointer gets a line under its status line that says so, and
 * that it is the KV forgetting committed windows (the broker lost its KV, or someone deleted or
 * rewrote the pointer), not another writer; the others get none. A bucket that cannot be read is
 * one line, and the queues after it are not checked, so a hundred queues do not wait out a
 * hundred timeouts.
 */
final class StatusLake {

    private final ManifestTrail trail;
    private final Intents intents;
    private final String lakePath;
    private final PrintStream out;
    private boolean unreadable;

    private StatusLake(ManifestTrail trail, Intents intents, String lakePath, PrintStream out) {
        this.trail = trail;
        this.intents = intents;
        this.lakePath = lakePath;
        this.out = out;
    }

    static StatusLake open(LakeSettings settings, Intents intents, PrintStream out) throws IOException {
        LauncherFileSystems.initialize(new Configuration(), settings);
        ManifestTrail trail = new ManifestTrail(LakeRoot.parse(settings.lakePath()), settings.tenant());
        return new StatusLake(trail, intents, settings.lakePath(), out);
    }

    /** Prints the queue's lake line when its manifests run ahead of {@code pointer}. */
    void print(String queue, String pointerKey, Optional<Committed> pointer) {
        if (unreadable) {
            return;
        }
        Optional<LakeAhead> ahead;
        try {
            ahead = trail.check(queue, pointerKey, pointer, intents.read(queue).intent());
        } catch (IOException e) {
            unreadable = true;
            out.println("  the lake at " + lakePath + " could not be read (" + e.getMessage() + "), so no queue's"
                    + " manifests are compared with its pointer: check QUEEN_S3_ENDPOINT, QUEEN_S3_BUCKET,"
                    + " QUEEN_S3_PATH_STYLE and the credentials.");
            return;
        }
        ahead.ifPresent(a -> out.println("  lake: the commit pointer is " + a.pointerState() + " but "
                + a.manifestsAbove() + " exist in the bucket (" + a.cause() + "; not another writer): the job refuses"
                + " this queue until " + a.repairCommand() + " rebuilds the pointer from the lake"));
    }
}
