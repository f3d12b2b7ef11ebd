package io.queenlake.connector.testutils;

import java.util.List;

/**
 * What {@link LakeChecker} found for one queue, as the sink tests read it: every problem as one
 * sentence (empty when the lake is exactly once), and how much it read. The full report is
 * {@link io.queenlake.connector.verify.LakeReport}.
 */
public record LakeReport(String queue, long committedK, long recordsRead, List<String> problems) {

    public LakeReport {
        problems = List.copyOf(problems);
    }

    static LakeReport of(io.queenlake.connector.verify.LakeReport report) {
        return new LakeReport(report.queue(), report.committedK(), report.recordsRead(), report.problems());
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
