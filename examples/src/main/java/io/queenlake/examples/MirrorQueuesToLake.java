package io.queenlake.examples;

import io.queenlake.connector.QueenLake;
import io.queenlake.source.StartMode;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ParameterTool;

/**
 * The smallest Flink job of your own that mirrors Queen queues into a lake: one builder, one
 * connection, attached to the environment. Run it on a cluster whose {@code plugins/} holds
 * {@code s3-fs-hadoop}:
 *
 * <pre>
 * flink run -c io.queenlake.examples.MirrorQueuesToLake my-job.jar \
 *     --broker http://queen:6632 --queues orders,refunds --lake s3://my-lake
 * </pre>
 */
public final class MirrorQueuesToLake {

    private MirrorQueuesToLake() {}

    public static void main(String[] args) throws Exception {
        ParameterTool params = ParameterTool.fromArgs(args);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        attach(env, params);
        env.execute("mirror " + params.getRequired("queues") + " to " + params.getRequired("lake"));
    }

    /**
     * The job's graph: {@code --broker}, {@code --queues} and {@code --lake} required; optional
     * {@code --token}, {@code --window-ms}, {@code --checkpoint-ms}, and {@code --start earliest} to
     * mirror what a queue held before the job first ran (by default it starts at the queue's end).
     */
    static void attach(StreamExecutionEnvironment env, ParameterTool params) {
        // Windows commit when a checkpoint completes, exactly once.
        env.enableCheckpointing(params.getLong("checkpoint-ms", 30_000), CheckpointingMode.EXACTLY_ONCE);
        QueenLake.builder()
                .brokerUrl(params.getRequired("broker"))
                .token(params.get("token"))
                .queues(params.getRequired("queues").split(","))
                .lakeRoot(params.getRequired("lake"))
                .maxWindowMs(params.getLong("window-ms", 300_000))
                .start(StartMode.parse(params.get("start", "latest")))
                .build()
                .attach(env);
    }
}
