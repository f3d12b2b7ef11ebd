package io.queenlake.bench.e2e;

/**
 * When, from a run's start, its source emitted the first record and when the whole corpus: the
 * time to commit all is then the start (cluster, job, leases, discovery), the read and the tail
 * (the last windows or parts, the last checkpoint, the commit). Seen at the run's poll cadence.
 */
final class ReadMilestones {

    private final long startNanos;
    private final long records;
    private long firstNanos = -1;
    private long allNanos = -1;

    ReadMilestones(long startNanos, long records) {
        this.startNanos = startNanos;
        this.records = records;
    }

    void poll() {
        long emitted = SourceProgress.emitted();
        long now = System.nanoTime();
        if (firstNanos < 0 && emitted > 0) {
            firstNanos = now - startNanos;
        }
        if (allNanos < 0 && emitted >= records) {
            allNanos = now - startNanos;
        }
    }

    /** Seconds to the first record, or NaN if none was seen. */
    double firstRecordSeconds() {
        return firstNanos < 0 ? Double.NaN : firstNanos / 1e9;
    }

    /** Seconds until the source had emitted the whole corpus, or NaN if it was not seen to. */
    double readAllSeconds() {
        return allNanos < 0 ? Double.NaN : allNanos / 1e9;
    }
}
