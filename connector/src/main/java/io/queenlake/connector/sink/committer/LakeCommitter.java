package io.queenlake.connector.sink.committer;

import io.queenlake.broker.client.QueenClient;
import io.queenlake.connector.metrics.LakeMetrics;
import io.queenlake.connector.sink.CrashPoint;
import io.queenlake.connector.sink.LakeSinkConfig;
import io.queenlake.connector.sink.committable.WindowCommittable;
import java.io.IOException;
import java.util.Collection;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Committer;

/**
 * The sink's Sink V2 {@link Committer}: commits what reaches Flink's committer operator, and
 * returns only when every window of the call is in the lake. The job's own windows never reach it:
 * {@link LakeCommitOperator}, ahead of it in the same task, commits them without holding the
 * checkpoint. What does reach it is the committer state of a checkpoint or savepoint taken before
 * that operator existed, which Flink commits when it restores, before the task runs; and code that
 * drives the committer directly (the tests, the crash matrix of a single call).
 *
 * <p>The windows go through the same {@link CommitLanes} as the operator's: per queue in {@code k}
 * order, queues at once, a retriable failure waited out in its lane, a fenced queue stopping the job
 * for good ({@code SuppressRestartsException}) once every other queue's windows settled. A window
 * the pointer already covers with the same objects is signalled already committed, as Iceberg's
 * committer does.
 */
@Internal
public final class LakeCommitter implements Committer<WindowCommittable> {

    private final LakeSinkConfig config;
    private final LakeMetrics metrics;
    private final QueenClient client;
    /** Opened by the first call that has windows: in the job's graph, usually never. */
    private QueueCommitter queues;

    public LakeCommitter(LakeSinkConfig config, LakeMetrics metrics) {
        this(config, metrics, config.newClient());
    }

    /** With a given broker client: tests wrap a real one to see the order of the KV calls. */
    LakeCommitter(LakeSinkConfig config, LakeMetrics metrics, QueenClient client) {
        this.config = config;
        this.metrics = metrics;
        this.client = client;
    }

    @Override
    public void commit(Collection<CommitRequest<WindowCommittable>> requests) throws IOException, InterruptedException {
        if (requests.isEmpty()) {
            return;
        }
        if (queues == null) {
            queues = QueueCommitter.open(config, metrics, client, config.commitKvWritesPerSecond());
        }
        long highest = requests.stream().mapToLong(r -> r.getCommittable().k()).max().orElse(0);
        config.crashIfArmed(CrashPoint.AFTER_CHECKPOINT_BEFORE_COMMIT, highest);
        Map<WindowCommittable, CommitRequest<WindowCommittable>> byWindow = new IdentityHashMap<>();
        requests.forEach(r -> byWindow.put(r.getCommittable(), r));
        List<WindowCommittable> inOrder = requests.stream().map(CommitRequest::getCommittable)
                .sorted(Comparator.comparing(WindowCommittable::queue).thenComparingLong(WindowCommittable::k))
                .toList();
        CommitLanes.commitAll(queues, config.commitConcurrency(), inOrder, (window, step) -> {
            if (step instanceof CommitStep.Already) {
                byWindow.get(window).signalAlreadyCommitted();
            }
        }, "lake-committer-" + config.sinkName() + "-queue");
    }

    @Override
    public void close() throws IOException {
        if (queues != null) {
            queues.close();
        }
    }
}
