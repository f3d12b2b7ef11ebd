package io.queenlake.source;

import io.queenlake.source.split.QueueCut;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.annotation.PublicEvolving;

/**
 * What the windows chained to this source tell its reader, the one thing that flows against the
 * stream: at a checkpoint, per queue, the cut the split must carry (docs/ARCHITECTURE.md "Restore"), and whether the open windows are over their memory budget.
 *
 * <p>The windows run in the reader's task, on its thread, so they register themselves for that
 * thread ({@link #register}); the reader looks them up when it snapshots. Every operator call of
 * a task (open, processElement, snapshotState, close) runs on the task's one thread, and a
 * failover starts a new task on a new thread, so the registration can never reach another task
 * or another attempt. A reader with no windows behind it (the source alone) checkpoints its own
 * read positions.
 */
@PublicEvolving
public interface OpenWindows {

    /**
     * The queue's cut now, empty when the windows never started the queue.
     *
     * @return the numbering to carry ({@link QueueCut}) and, per partition incarnation with
     *     records in an open window (by {@code PartitionSplit.splitId}), the offset of its oldest
     *     open record, where a restore reads it from again
     */
    Optional<Snapshot> snapshot(String queue);

    /** Whether the open windows of this task manager hold more bytes than their budget. */
    boolean overBudget();

    /** {@link #ready()} of windows that always take records. */
    CompletableFuture<Void> READY = CompletableFuture.completedFuture(null);

    /**
     * Done while the windows take records; otherwise it completes when they do again (the sink
     * chained behind has as many bytes waiting to be staged as it may hold). The reader emits no
     * record meanwhile, so its fetches wait in its queue: a full sink slows the reading by
     * backpressure while the task's thread stays free for checkpoints, instead of blocking it in
     * the middle of closing windows. Read for every record: cheap, and from the task's thread.
     */
    default CompletableFuture<Void> ready() {
        return READY;
    }

    /**
     * One queue's cut.
     *
     * @param cut what the split carries: {@code k}, {@code tEnd}s, closed positions, and the lost
     *     ranges riding on the oldest open records (a restore reads from those records, so it would
     *     not find those gaps again)
     * @param firstOpenOffsets per partition incarnation, the offset of its oldest open record
     */
    record Snapshot(QueueCut cut, Map<String, Long> firstOpenOffsets) {
        public Snapshot {
            java.util.Objects.requireNonNull(cut, "cut");
            firstOpenOffsets = Map.copyOf(firstOpenOffsets);
        }
    }

    /** Makes {@code windows} the open windows of the calling task's thread. */
    static void register(OpenWindows windows) {
        Registry.OF_TASK.set(windows);
    }

    /** Forgets {@code windows} if it is the calling thread's. */
    static void unregister(OpenWindows windows) {
        if (Registry.OF_TASK.get() == windows) {
            Registry.OF_TASK.remove();
        }
    }

    /** The open windows chained behind the calling task's reader, if any. */
    static Optional<OpenWindows> ofThisTask() {
        return Optional.ofNullable(Registry.OF_TASK.get());
    }

    /** The per-task-thread registration. */
    final class Registry {
        private static final ThreadLocal<OpenWindows> OF_TASK = new ThreadLocal<>();

        private Registry() {}
    }
}
