package io.queenlake.connector.sink;

import io.queenlake.connector.metrics.LakeMetrics;
import io.queenlake.connector.sink.committable.WindowCommittable;
import io.queenlake.connector.sink.committable.WindowCommittableSerializer;
import io.queenlake.connector.sink.committer.LakeCommitOperator;
import io.queenlake.connector.sink.committer.LakeCommitter;
import io.queenlake.connector.sink.writer.CarriedWindowsSerializer;
import io.queenlake.connector.sink.writer.LakeWriter;
import io.queenlake.connector.window.ClosedWindow;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * The exactly-once lake sink, a two-phase Sink V2 modelled on Flink's FileSink: the
 * {@link LakeWriter} stages each closed window's objects under their final keys, invisible, and
 * hands one {@link WindowCommittable} per window at {@code prepareCommit}; after the checkpoint
 * completed the {@link LakeCommitOperator} (the sink's pre-commit topology, in a task of its own)
 * publishes objects, manifest and the KV commit pointer, per queue in {@code k} order, queues at
 * once, without holding that task or its checkpoints. The Sink V2 {@link LakeCommitter} behind it
 * commits only committables restored from a checkpoint taken before that operator existed. Only
 * assembles the parts: all of them come from the same {@link LakeSinkConfig}.
 *
 * <p>Operator uids: give the sink one ({@code sinkTo(sink).uid(..)}, as {@code LakePipeline}
 * does; Flink refuses a lake sink without, since the commit operator has an explicit uid). The
 * writer keeps the sink's uid, the commit operator {@code <uid>: commits} and the committer
 * {@code Sink Committer: <uid>} (Flink derives them).
 */
@PublicEvolving
public final class LakeSink implements Sink<ClosedWindow>, SupportsCommitter<WindowCommittable>,
        SupportsPreCommitTopology<WindowCommittable, WindowCommittable>, SupportsWriterState<ClosedWindow, ClosedWindow> {

    private static final long serialVersionUID = 1L;

    /** The commit operator's name, shown as {@code Lake sink: Commits} in the web UI, heading the committer's task. */
    static final String COMMITS_NAME = "Commits";
    /** Explicit so the graph never depends on generated ids; Flink prefixes the sink's uid. */
    static final String COMMITS_UID = "commits";

    private final LakeSinkConfig config;

    LakeSink(LakeSinkConfig config) {
        this.config = config;
    }

    public static LakeSinkBuilder builder() {
        return new LakeSinkBuilder();
    }

    public LakeSinkConfig config() {
        return config;
    }

    @Override
    public StatefulSinkWriter<ClosedWindow, ClosedWindow> createWriter(WriterInitContext context) throws IOException {
        return restoreWriter(context, List.of());
    }

    /** The writer's state is the windows it had not handed on yet (their uploads were retrying). */
    @Override
    public StatefulSinkWriter<ClosedWindow, ClosedWindow> restoreWriter(WriterInitContext context,
            Collection<ClosedWindow> carried) throws IOException {
        CarriedWindowsSerializer.refuseForeign(carried, context.getTaskInfo());
        return new LakeWriter(config, context.getMailboxExecutor(), context.getTaskInfo().getIndexOfThisSubtask(),
                carried);
    }

    @Override
    public SimpleVersionedSerializer<ClosedWindow> getWriterStateSerializer() {
        return new CarriedWindowsSerializer();
    }

    @Override
    public Committer<WindowCommittable> createCommitter(CommitterInitContext context) throws IOException {
        return new LakeCommitter(config, new LakeMetrics(context.metricGroup()));
    }

    @Override
    public SimpleVersionedSerializer<WindowCommittable> getCommittableSerializer() {
        return new WindowCommittableSerializer();
    }

    @Override
    public DataStream<CommittableMessage<WindowCommittable>> addPreCommitTopology(
            DataStream<CommittableMessage<WindowCommittable>> written) {
        return written.forward()
                .transform(COMMITS_NAME, written.getType(), new LakeCommitOperator(config))
                .uid(COMMITS_UID)
                .startNewChain();
    }

    /** The writer hands the committer's own committables: the hand-off changes none of them. */
    @Override
    public SimpleVersionedSerializer<WindowCommittable> getWriteResultSerializer() {
        return new WindowCommittableSerializer();
    }
}
