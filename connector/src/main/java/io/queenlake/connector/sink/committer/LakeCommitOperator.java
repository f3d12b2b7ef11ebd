package io.queenlake.connector.sink.committer;

import io.queenlake.connector.metrics.LakeMetrics;
import io.queenlake.connector.sink.CrashPoint;
import io.queenlake.connector.sink.LakeSinkConfig;
import io.queenlake.connector.sink.committable.WindowCommittable;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.function.ThrowingRunnable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits the staged windows after their checkpoint completed, without holding the task: the
 * sink's pre-commit topology, in the committer's task (docs/ARCHITECTURE.md "Two-phase commit").
 *
 * <p>Flink's Sink V2 committer cannot do this: {@code Committer.commit} runs on the task's thread
 * inside {@code notifyCheckpointComplete}, and a request left for later is asked again at once (up
 * to {@code sink.committer.retries} times) before the task fails, so every second a commit takes
 * is a second in which no checkpoint barrier passes that task. Here a completed checkpoint only
 * hands its windows to the {@link CommitLanes} and returns; the lanes report each window committed
 * back on the task's mailbox, and only then does the window leave this operator's state.
 *
 * <ul>
 *   <li><b>In state</b> ({@link PendingWindows}): every window received and not yet reported in the
 *       lake, whether its checkpoint completed or not, whether its commit is in flight or not.
 *   <li><b>Retried</b>: a bucket or broker failure pauses only that queue's lane and retries it
 *       (the lag grows, nothing else waits); a fenced queue fails the job for good, any other
 *       failure fails the task.
 *   <li><b>Restored</b>: the windows of the restored state all belong to completed checkpoints;
 *       they are committed before the task runs, as Flink's committer commits restored
 *       committables, so a queue whose split moved to another subtask in a rescale never has two
 *       subtasks committing it. Each commit is idempotent (a window the pointer covers with the
 *       same manifest is found already committed; the intent finishes one cut short with the same
 *       keys), so a crash at any point, even between a commit and the mailbox hearing of it, loses
 *       and duplicates nothing.
 *   <li><b>End of input</b>: every window is released and waited for.
 * </ul>
 *
 * It emits nothing: Flink's committer behind it sees no committable of this job.
 */
@Internal
public final class LakeCommitOperator extends AbstractStreamOperator<CommittableMessage<WindowCommittable>>
        implements OneInputStreamOperator<CommittableMessage<WindowCommittable>, CommittableMessage<WindowCommittable>>,
        BoundedOneInput {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(LakeCommitOperator.class);

    private final LakeSinkConfig config;

    private transient MailboxExecutor mailbox;
    private transient ListState<byte[]> state;
    private transient PendingWindows pending;
    private transient LakeMetrics metrics;
    private transient QueueCommitter queues;
    private transient CommitLanes lanes;

    public LakeCommitOperator(LakeSinkConfig config) {
        this.config = config;
    }

    @Override
    public void setMailboxExecutor(MailboxExecutor mailboxExecutor) {
        super.setMailboxExecutor(mailboxExecutor);
        this.mailbox = mailboxExecutor;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        state = context.getOperatorStateStore()
                .getListState(new ListStateDescriptor<>("pending-windows", BytePrimitiveArraySerializer.INSTANCE));
        metrics = new LakeMetrics(getMetricGroup());
        // The tenant's KV write budget is the job's: each commit subtask takes its share.
        queues = QueueCommitter.open(config, metrics, config.newClient(),
                (double) config.commitKvWritesPerSecond() / getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks());
        PendingWindows restored = PendingWindows.restore(state.get());
        pending = new PendingWindows();
        if (restored.size() > 0) {
            LOG.info("committing {} windows restored from a completed checkpoint before the task runs", restored.size());
            CommitLanes.commitAll(queues, config.commitConcurrency(), restored.windows(), (w, step) -> {},
                    threadName() + "-restored");
        }
        getMetricGroup().gauge("windowsAwaitingCommit", () -> pending.size());
    }

    @Override
    public void open() throws Exception {
        super.open();
        lanes = new CommitLanes(queues, config.commitConcurrency(), new ToMailbox(), threadName());
    }

    private String threadName() {
        return "lake-committer-" + config.sinkName() + "-" + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
    }

    @Override
    public void processElement(StreamRecord<CommittableMessage<WindowCommittable>> element) {
        if (element.getValue() instanceof CommittableWithLineage<WindowCommittable> staged) {
            pending.add(staged.getCheckpointIdOrEOI(), staged.getCommittable());
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        state.update(pending.snapshot());
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        release(checkpointId);
    }

    private void release(long checkpointId) {
        List<WindowCommittable> ready = pending.release(checkpointId);
        if (ready.isEmpty()) {
            return;
        }
        config.crashIfArmed(CrashPoint.AFTER_CHECKPOINT_BEFORE_COMMIT,
                ready.stream().mapToLong(WindowCommittable::k).max().orElse(0));
        lanes.submit(ready);
    }

    /** The last windows (staged at the end of input) commit before the task finishes. */
    @Override
    public void endInput() throws Exception {
        release(CommittableMessage.EOI);
        while (pending.size() > 0) {
            mailbox.yield();
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (lanes != null) {
                lanes.close();
            }
            if (queues != null) {
                queues.close();
            }
        } finally {
            super.close();
        }
    }

    /** Hands the lanes' reports to the task's thread, where the state lives. */
    private final class ToMailbox implements CommitLanes.Outcomes {

        @Override
        public void committed(WindowCommittable window, CommitStep step) {
            post(() -> pending.committed(window), "window committed");
        }

        @Override
        public void failed(String queue, RuntimeException failure, boolean fenced) {
            post(() -> {
                throw fenced ? new SuppressRestartsException(failure) : failure;
            }, "commit of queue '" + queue + "' failed");
        }

        private void post(ThrowingRunnable<? extends Exception> action, String what) {
            try {
                mailbox.execute(action, what);
            } catch (RejectedExecutionException e) {
                // The task is ending; the window stays in the last checkpoint's state and commits after a restore.
                LOG.debug("the committer's task is ending, not told: {}", what);
            }
        }
    }
}
