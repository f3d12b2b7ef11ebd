package io.queenlake.source.enumerator;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The discovery passes so far (complete ones, in this run and in all, the last complete one's
 * safeTime, the queues swept in full in this run, runs since the last listing) and, from them,
 * what the next discovery run asks. Coordinator thread only; the run reads the immutable
 * {@link DiscoveryInput} it returns.
 */
final class PassPlanner {

    /** Every 30th complete pass asks every partition again (the reference's reconciliation sweep). */
    static final int FULL_SWEEP_EVERY = 30;
    /** Incremental passes ask for partitions written since the last complete pass's safeTime minus this. */
    static final long SINCE_SLACK_MICROS = 2_000_000L;
    /** With {@code queen.s3.queues=*}, the tenant's queues are listed every this many discovery runs. */
    static final int RELIST_EVERY = 10;

    private final boolean allQueues;
    private final Set<String> swept = new HashSet<>();
    private long passes;
    private long passesThisRun;
    private long lastSafeTime;
    private int runsSinceListing;

    /** Restored with the checkpoint's complete passes and their last safeTime; a new run has swept nothing yet. */
    PassPlanner(boolean allQueues, long passes, long lastSafeTimeMicros) {
        this.allQueues = allQueues;
        this.passes = passes;
        this.lastSafeTime = lastSafeTimeMicros;
    }

    /** The safeTime of the last complete pass, {@link Long#MIN_VALUE} before any. */
    long lastSafeTimeMicros() {
        return lastSafeTime;
    }

    long completePasses() {
        return passes;
    }

    /** A discovery run came back, with the tenant's listing or without. */
    void ran(boolean listed) {
        runsSinceListing = listed ? 0 : runsSinceListing + 1;
    }

    /** The queues a run asked in full and covered are swept for this run: later runs ask them incrementally. */
    void swept(DiscoveryInput input, Set<String> covered) {
        for (String queue : input.fullQueues()) {
            if (covered.contains(queue)) {
                swept.add(queue);
            }
        }
    }

    /** A pass covered every held queue: readers judge their frontier against its safeTime. */
    void completed(long safeTimeMicros) {
        passes++;
        passesThisRun++;
        lastSafeTime = safeTimeMicros;
    }

    /** The next run: full for queues not swept in this run (and every 30th pass), incremental for the rest. */
    DiscoveryInput next(WantedQueues wanted, PartitionBook book, RefusedQueues refused) {
        boolean relist = allQueues && (!wanted.known() || runsSinceListing >= RELIST_EVERY - 1);
        boolean fullSweep = passesThisRun == 0 || lastSafeTime == Long.MIN_VALUE || passes % FULL_SWEEP_EVERY == 0;
        List<String> full = new ArrayList<>();
        List<String> incremental = new ArrayList<>();
        List<String> undecided = new ArrayList<>();
        long now = System.currentTimeMillis();
        for (String queue : wanted.names()) {
            if (!wanted.mine(queue)) {
                continue;
            }
            if (!book.decided(queue) && refused.contains(queue) && !refused.due(queue, now)) {
                continue; // refused: its plan (the pointer against the lake) is read again when due
            }
            if (fullSweep || !swept.contains(queue)) {
                full.add(queue);
                if (!book.decided(queue)) {
                    undecided.add(queue);
                }
            } else {
                incremental.add(queue);
            }
        }
        OptionalLong since = incremental.isEmpty() ? OptionalLong.empty() : OptionalLong.of(lastSafeTime - SINCE_SLACK_MICROS);
        return new DiscoveryInput(full, incremental, since, undecided, relist);
    }
}
