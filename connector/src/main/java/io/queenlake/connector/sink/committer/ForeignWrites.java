package io.queenlake.connector.sink.committer;

import io.queenlake.source.QueenSourceOptions;
import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.ObservedIntent;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.format.manifest.Intent;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.model.Micros;
import io.queenlake.connector.sink.committable.WindowCommittable;
import io.queenlake.source.enumerator.start.LakeAhead;
import java.io.IOException;
import java.util.Optional;

/**
 * What stands in a window's way that this job did not write, worded as the one ERROR line that
 * stops the queue: a manifest {@code k} already in the bucket that is not this window, or a commit
 * pointer another writer moved (or the lake ahead of a pointer the KV forgot). Never decides to
 * write: the committer asks before its intent, and stops when told.
 */
final class ForeignWrites {

    private final CommitPointers pointers;
    private final LakeObjects objects;

    ForeignWrites(CommitPointers pointers, LakeObjects objects) {
        this.pointers = pointers;
        this.objects = objects;
    }

    /**
     * Never writes over a committed window: manifest {@code k} found in the bucket before this
     * commit must be this very window with the same objects, as an earlier attempt published it
     * (kept as it is: a redo of an intent reads the same records and writes the same bytes). Any
     * other manifest there, another window's or this window's with other objects (the records of
     * the earlier attempt are no longer what the broker holds), stops the queue before its intent,
     * objects or manifest are touched. Bytes that do not parse are left alone too, unless the
     * intent read before this commit names this very window (a torn write of that attempt on a
     * file system without atomic writes). A read before the write, not a conditional create: the
     * job writes through Flink's S3 file system (Hadoop 3.3.4's S3A), which cannot send
     * {@code If-None-Match}; the intent's conditional put already keeps this sink's writers one at
     * a time, so only a writer outside the protocol could slip between the read and the write.
     */
    Optional<LakeFencedException> manifestTaken(WindowCommittable window, FoundManifest found,
            Optional<Intent> intentBefore, ObservedPointer observed) {
        if (found.isAbsent()) {
            return Optional.empty();
        }
        Manifest ours = window.manifest();
        String remedy = " (its commit pointer " + pointers.committedKey(window.queue()) + " is " + pointerState(observed)
                + "); if the"
                + " broker lost its KV or someone deleted the pointer, rebuild it from the lake with `"
                + LakeAhead.REPAIR_COMMAND + " --queue " + window.queue() + "`, otherwise stop the other writer of this"
                + " prefix.";
        String oursText = "window k=" + ours.k() + " [" + Micros.render(ours.tStart()) + ", " + Micros.render(ours.tEnd())
                + ")";
        if (found.unreadable().isPresent()) {
            boolean ownTornAttempt = intentBefore.filter(i -> i.k() == ours.k() && i.tStart() == ours.tStart()
                    && i.tEnd() == ours.tEnd()).isPresent();
            return ownTornAttempt ? Optional.empty() : Optional.of(new LakeFencedException("queue '" + window.queue()
                    + "' is fenced: manifest " + objects.manifestKey(window) + " holds bytes that do not parse ("
                    + found.unreadable().get() + "), and no intent of this job names " + oursText + ", so it stops"
                    + " without writing over them" + remedy));
        }
        Manifest there = found.manifest().orElseThrow();
        if (there.isStamped() && there.describesSameWindowAs(ours) && there.namesSameObjectsAs(ours)) {
            return Optional.empty();
        }
        String what = there.describesSameWindowAs(ours)
                ? "this very window with other objects (its records are not what the broker holds now)"
                : "window k=" + there.k() + " [" + Micros.render(there.tStart()) + ", " + Micros.render(there.tEnd())
                        + ") of sink '" + there.sink() + "'";
        return Optional.of(new LakeFencedException("queue '" + window.queue() + "' is fenced: manifest "
                + objects.manifestKey(window) + " already holds " + what
                + (there.isStamped() ? ", committed at " + Micros.render(there.committedAtMicros()) : "")
                + ", not the " + oursText + " that this job commits, so it stops without writing over it" + remedy));
    }

    /** What the KV holds, in words: {@code absent} or {@code at k=5}. */
    static String pointerState(ObservedPointer observed) {
        return observed.pointer().map(p -> "at k=" + p.k()).orElse("absent");
    }

    /**
     * Why the pointer is not where this job expects it: the lake ahead of it (the KV forgot
     * committed windows, {@link LakeAhead}), or another writer.
     */
    LakeFencedException pointerMoved(WindowCommittable window, ObservedPointer observed, ObservedIntent intent)
            throws IOException {
        // A bucket that cannot answer is retried like any bucket failure: the verdict needs the lake.
        Optional<LakeAhead> ahead = objects.lakeAhead(window, pointers.committedKey(window.queue()),
                observed.pointer(), intent.intent());
        if (ahead.isPresent()) {
            return new LakeFencedException(ahead.get().describeAtCommit(window.k()));
        }
        String pointer = observed.pointer()
                .map(p -> "at k=" + p.k() + " (tEnd " + Micros.render(p.tEnd()) + ")")
                .orElse("absent");
        String holder;
        try {
            holder = pointers.holder(window.queue());
        } catch (QueenException e) {
            holder = "an unknown lease holder (the lease could not be read: " + e.getMessage() + ")";
        }
        return new LakeFencedException("queue '" + window.queue() + "' is fenced: its commit pointer "
                + pointers.committedKey(window.queue()) + " is " + pointer + ", " + holder
                + ", so another writer moved it and this job stops without writing window k=" + window.k()
                + "; stop the other writer or give this job its own sink name ("
                + QueenSourceOptions.SINK.key() + ").");
    }
}
