package io.queenlake.connector.pipeline;

import io.queenlake.connector.sink.LakeSink;
import io.queenlake.connector.window.ClosedWindow;
import io.queenlake.connector.window.ClosedWindowTypeInfo;
import io.queenlake.connector.window.LakeWindowOperator;
import io.queenlake.connector.window.WindowSettings;
import io.queenlake.source.QueenSource;
import io.queenlake.source.QueueEvent;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The job graph, and nothing else: QueenSource -> per-queue broker-clock windows -> the two-phase
 * lake sink, in one task (docs/ARCHITECTURE.md "The job graph"). No exchange: the windows run
 * chained to the source, so a queue's records go from fetch to staged object without a network hop
 * or a state write, and the reader checkpoints the windows' cut with its split ({@link
 * ChainCheck} refuses a graph where they would not be chained). Operator uids are fixed:
 * savepoints taken by one release restore into the next.
 */
@PublicEvolving
public final class LakePipeline {

    public static final String SOURCE_UID = "queen-source";
    public static final String WINDOWS_UID = "lake-windows";
    public static final String SINK_UID = "lake-sink";

    private LakePipeline() {}

    /** Adds the graph to {@code env}; returns the sink, as {@code sinkTo} does. */
    public static DataStreamSink<ClosedWindow> attach(
            StreamExecutionEnvironment env, QueenSource source, WindowSettings windows, LakeSink sink) {
        DataStream<QueueEvent> events = env
                .fromSource(source, source.watermarkStrategy(), "Queen source")
                .uid(SOURCE_UID);
        DataStream<ClosedWindow> closed = events
                .transform("Broker-clock windows", ClosedWindowTypeInfo.INSTANCE, new LakeWindowOperator(windows, sink.config().writerSettings().format()))
                .uid(WINDOWS_UID);
        DataStreamSink<ClosedWindow> lake = closed.sinkTo(sink).uid(SINK_UID).name("Lake sink");
        ChainCheck.verify(env, SOURCE_UID, WINDOWS_UID, SINK_UID);
        return lake;
    }
}
