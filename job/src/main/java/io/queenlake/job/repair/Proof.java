package io.queenlake.job.repair;

import io.queenlake.format.manifest.Committed;
import java.util.Optional;

/**
 * What the lake proves of one queue: manifests {@code 1..k} present, readable, the queue's own,
 * chained, with every object they name in the bucket at its length (and sha256 when checked).
 *
 * @param highest the highest manifest number in the queue's manifests folder, 0 when it holds none
 * @param k the highest window such that windows {@code 1..k} are all proven, 0 when not even window 1 is
 * @param objects how many objects manifests {@code 1..k} name
 * @param records how many records manifests {@code 1..k} hold
 * @param stop why window {@code k + 1} is not proven, empty when {@code k == highest}
 * @param pointer the commit pointer of window {@code k} exactly as the committer writes it; empty when {@code k == 0}
 * @param sha256Checked whether the objects' sha256 was checked besides their lengths
 */
public record Proof(long highest, long k, long objects, long records, Optional<String> stop,
        Optional<Committed> pointer, boolean sha256Checked) {

    /** Whether the queue has no manifest at all in the lake. */
    public boolean empty() {
        return highest == 0;
    }

    /** One line: what is proven, and why it stops short of the highest manifest. */
    public String summary(String queue, String manifestFolder) {
        if (empty()) {
            return "queue '" + queue + "': no manifest in " + manifestFolder;
        }
        String checked = sha256Checked ? "checked lengths and sha256" : "checked lengths";
        String proven = k == 0
                ? "queue '" + queue + "': no window proven (" + checked + ")"
                : "queue '" + queue + "': manifests 1.." + k + " present and complete (" + objects + " objects, "
                        + records + " records, " + checked + ")";
        if (stop.isEmpty()) {
            return proven;
        }
        return proven + "; the lake holds manifests up to " + highest + ", but " + stop.get();
    }

    /**
     * Why no pointer is written when the proof stops short of the highest manifest: a pointer at
     * {@code k} would leave manifests {@code k+1..highest} beyond it, and the job refuses a queue
     * whose lake is ahead of its pointer (it would write window {@code k + 1} over one of them).
     */
    public String shortOfTheLake(String queue) {
        return "a commit pointer " + (k == 0 ? "before window 1" : "at k=" + k) + " would leave manifests " + (k + 1)
                + ".." + highest + " beyond it, and the job refuses a queue whose lake is ahead of its pointer, so"
                + " nothing is written: restore what is missing or broken (from the bucket's versions or a backup), or,"
                + " to give windows " + (k + 1) + ".." + highest + " up, move those manifests and the objects they name"
                + " out of the prefix; then run ./queen-lake repair-pointer --queue " + queue + " again";
    }
}
