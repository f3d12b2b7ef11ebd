package io.queenlake.source.enumerator.start;

import java.util.Objects;
import java.util.OptionalLong;
import org.apache.flink.annotation.Internal;

/**
 * A queue whose lake is ahead of its commit pointer: manifests exist in the bucket beyond the
 * window the pointer (and an open intent) account for. The lake is the truth, so the KV forgot or
 * was changed: the broker lost its KV, or someone deleted or rewrote the pointer. Never another
 * writer of this sink (its pointer would be ahead, not behind). The queue must not be written
 * until the pointer is rebuilt from the lake ({@code repair-pointer}): committing from the
 * pointer would write window {@code k + 1} over a committed manifest.
 *
 * @param pointerK the pointer's {@code k}, empty when the pointer is absent
 * @param highestManifest the highest manifest found above it (manifests are contiguous from there)
 */
@Internal
public record LakeAhead(String queue, String pointerKey, OptionalLong pointerK, long highestManifest) {

    /** The command that rebuilds the pointer, for messages. */
    public static final String REPAIR_COMMAND = "./queen-lake repair-pointer";

    public LakeAhead {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(pointerKey, "pointerKey");
        Objects.requireNonNull(pointerK, "pointerK");
    }

    /** What the KV holds, in words: {@code absent} or {@code at k=5}. */
    public String pointerState() {
        return pointerK.isPresent() ? "at k=" + pointerK.getAsLong() : "absent";
    }

    /** Why, in words: a pointer that is gone, or one that went back. */
    public String cause() {
        return pointerK.isPresent()
                ? "the broker's KV went back, or someone rewrote the pointer"
                : "the broker lost its KV, or someone deleted the pointer";
    }

    /** The manifests beyond the pointer: {@code manifests 1..21}. */
    public String manifestsAbove() {
        return "manifests " + (pointerK.orElse(0) + 1) + ".." + highestManifest;
    }

    /** The command that repairs this queue, quoted: {@code `./queen-lake repair-pointer --queue orders`}. */
    public String repairCommand() {
        return "`" + REPAIR_COMMAND + " --queue " + queue + "`";
    }

    /** The same, met by a running commit of window {@code k}: the job stops without writing it. */
    public String describeAtCommit(long k) {
        return "queue '" + queue + "' is fenced: its commit pointer " + pointerKey + " is " + pointerState()
                + " but " + manifestsAbove() + " exist in the bucket (" + cause()
                + "; not another writer), so this job stops without writing window k=" + k + ": rebuild the pointer"
                + " from the lake with " + repairCommand() + " (with this job's settings), then"
                + " start the job again, from its latest checkpoint to commit the windows it staged since k="
                + highestManifest + ", or without state to continue at k=" + (highestManifest + 1)
                + " from what the broker holds now";
    }

    /** One sentence: the queue, what the KV holds, the highest manifest, why, and the command. */
    public String describe() {
        return "queue '" + queue + "' is refused: its commit pointer " + pointerKey + " is " + pointerState()
                + " but " + manifestsAbove() + " exist in the bucket (" + cause() + "); nothing of it is written, so"
                + " no committed window is written over: rebuild the pointer from the lake with " + repairCommand()
                + " (with this job's settings), and the queue continues at k=" + (highestManifest + 1);
    }
}
