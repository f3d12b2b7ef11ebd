package io.queenlake.connector.verify;

import io.queenlake.format.model.LostRange;
import java.util.List;

/**
 * What {@link LakeChecker} found for one queue: how much the committed windows hold, the lost
 * ranges their manifests declare (loss the job reported, not a problem of the lake), objects of
 * the next window still being committed, orphans, and every problem as one sentence (empty when
 * the lake is consistent).
 *
 * @param committedK the windows checked are {@code 1..committedK}
 * @param bytes the object bytes of those windows
 * @param pending objects of window {@code committedK + 1}, published before its pointer moves
 * @param rewritten {@code partition@offset} of every pushed payload the lake holds rewritten (not
 *     one JSON text, so written as a JSON string of its lossy UTF-8); each is also a problem
 */
public record LakeReport(String queue, long committedK, long recordsRead, long bytes, List<LostRange> lost,
        List<String> orphans, List<String> pending, List<String> rewritten, List<String> problems) {

    public LakeReport {
        lost = List.copyOf(lost);
        orphans = List.copyOf(orphans);
        pending = List.copyOf(pending);
        rewritten = List.copyOf(rewritten);
        problems = List.copyOf(problems);
    }

    public boolean ok() {
        return problems.isEmpty();
    }

    /** Records the declared lost ranges cover. */
    public long recordsLost() {
        return lost.stream().mapToLong(LostRange::count).sum();
    }

    /** One line: windows, records, bytes, lost ranges, orphans, rewritten payloads, problems. */
    public String summary() {
        return "queue '" + queue + "': " + committedK + " windows, " + recordsRead + " records, " + bytes + " bytes, "
                + lost.size() + " lost ranges (" + recordsLost() + " records), " + orphans.size() + " orphans, "
                + (pending.isEmpty() ? "" : pending.size() + " objects of window " + (committedK + 1) + " pending, ")
                + (rewritten.isEmpty() ? "" : rewritten.size() + " payloads rewritten, ")
                + problems.size() + " problems";
    }

    @Override
    public String toString() {
        return summary() + (ok() ? "" : ":\n  " + String.join("\n  ", problems));
    }
}
