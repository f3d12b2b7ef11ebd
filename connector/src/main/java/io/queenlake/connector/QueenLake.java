package io.queenlake.connector;

import io.queenlake.connector.pipeline.LakePipeline;
import io.queenlake.connector.sink.LakeSink;
import io.queenlake.connector.window.ClosedWindow;
import io.queenlake.connector.window.WindowSettings;
import io.queenlake.source.QueenSource;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A Flink user's one way in: the Queen source, the broker-clock windows and the exactly-once lake
 * sink, built from one connection by {@link #builder()} and added to a job by {@link #attach}.
 *
 * <pre>{@code
 * QueenLake.builder()
 *         .brokerUrl("http://queen:6632")
 *         .queues("orders", "refunds")
 *         .lakeRoot("s3://my-lake")
 *         .build()
 *         .attach(env);
 * }</pre>
 *
 * <p>The three run chained in one task (the windows describe positions the source's reader
 * checkpoints): {@link #attach} builds them so, and the windows refuse, when they open, a graph
 * that feeds them from anything but the Queen source in their own task.
 */
@PublicEvolving
public final class QueenLake {

    private final QueenSource source;
    private final WindowSettings windows;
    private final LakeSink sink;

    QueenLake(QueenSource source, WindowSettings windows, LakeSink sink) {
        this.source = source;
        this.windows = windows;
        this.sink = sink;
    }

    public static QueenLakeBuilder builder() {
        return new QueenLakeBuilder();
    }

    /**
     * Adds source, windows and sink to {@code env}, chained, with the operator uids savepoints name.
     * Windows commit when a checkpoint completes: the job needs exactly-once checkpointing on.
     */
    public DataStreamSink<ClosedWindow> attach(StreamExecutionEnvironment env) {
        return LakePipeline.attach(env, source, windows, sink);
    }

    public QueenSource source() {
        return source;
    }

    public WindowSettings windows() {
        return windows;
    }

    public LakeSink sink() {
        return sink;
    }
}
