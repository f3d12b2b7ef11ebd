package io.queenlake.job.testutils;

import java.util.List;

/**
 * What {@link LakeChecker} found for one queue: every problem as one sentence (empty when the lake
 * is exactly once), and how much it read.
 */
public record LakeReport(String queue, long committedK, long recordsRead, List<String> problems) {

    public LakeReport {
        problems = List.copyOf(problems);
    }

    public boolean ok() {
        return problems.isEmpty();
    }

    @Override
    public String toString() {
        return "queue '" + queue + "' k=1.." + committedK + ", " + recordsRead + " records read, "
                + (ok() ? "no problem" : problems.size() + " problems:\n  " + String.join("\n  ", problems));
    }
}
