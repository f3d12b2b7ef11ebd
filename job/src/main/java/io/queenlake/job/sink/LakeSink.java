package io.queenlake.job.sink;

import io.queenlake.job.metrics.LakeMetrics;
import io.queenlake.job.sink.committable.WindowCommittable;
import io.queenlake.job.sink.committable.WindowCommittableSerializer;
import io.queenlake.job.sink.committer.LakeCommitter;
import io.queenlake.job.sink.writer.CarriedWindowsSerializer;
import io.queenlake.job.sink.writer.LakeWriter;
import io.queenlake.job.window.ClosedWindow;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
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
 * completed the {@link LakeCommitter} publishes objects, manifest and the KV commit pointer, per
 * queue in {@code k} order. Only assembles the parts: writer, committer and serializer come from
 * the same {@link LakeSinkConfig}; the {@link StagedWindowsHandOff} between writer and committer
 * puts the committer in a task of its own, so commits never stall the window operator.
 *
 * <p>Operator uids: give the sink one ({@code sinkTo(sink).uid(..)}, as {@code LakePipeline}
 * does; Flink refuses a lake sink without, since the hand-off has an explicit uid). The writer
 * keeps the sink's uid and the committer {@code Sink Committer: <uid>} (Flink derives both); the
 * hand-off is stateless, so savepoints of the chained graph restore.
 */
public final class LakeSink implements Sink<ClosedWindow>, SupportsCommitter<WindowCommittable>,
        SupportsPreCommitTopology<WindowCommittable, WindowCommittable>, SupportsWriterState<ClosedWindow, ClosedWindow> {

    private static final long serialVersionUID = 1L;

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
        return StagedWindowsHandOff.attach(written);
    }

    /** The writer hands the committer's own committables: the hand-off changes none of them. */
    @Override
    public SimpleVersionedSerializer<WindowCommittable> getWriteResultSerializer() {
        return new WindowCommittableSerializer();
    }
}
