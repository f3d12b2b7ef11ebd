package io.queenlake.connector.pipeline;

import java.util.Optional;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamEdge;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.streaming.api.graph.StreamingJobGraphGenerator;

/**
 * Refuses, when the graph is built, a lake whose windows would not run chained to the source and
 * the sink writer to the windows. The reader checkpoints each queue's replay positions from the
 * windows of its own task (the open windows live in memory, not in Flink state), so an exchange
 * between them would checkpoint positions that no window describes. Flink decides chaining from
 * the parallelism, the partitioner, the slot sharing and {@code pipeline.operator-chaining}: this
 * asks Flink's own rule.
 */
final class ChainCheck {

    private ChainCheck() {}

    /** Throws {@link IllegalArgumentException} with one sentence when an edge would not be chained. */
    static void verify(StreamExecutionEnvironment env, String sourceUid, String windowsUid, String writerUid) {
        StreamGraph graph = env.getStreamGraph(false);
        StreamNode source = node(graph, sourceUid);
        StreamNode windows = node(graph, windowsUid);
        StreamNode writer = node(graph, writerUid);
        requireChained(graph, source, windows, "the Queen source", "the broker-clock windows");
        requireChained(graph, windows, writer, "the broker-clock windows", "the lake sink's writer");
    }

    private static void requireChained(StreamGraph graph, StreamNode from, StreamNode to, String fromName, String toName) {
        Optional<StreamEdge> edge = from.getOutEdges().stream().filter(e -> e.getTargetId() == to.getId()).findFirst();
        if (edge.isEmpty() || !StreamingJobGraphGenerator.isChainable(edge.get(), graph)) {
            throw new IllegalArgumentException(toName + " must run chained to " + fromName + " (one task, same"
                    + " parallelism " + from.getParallelism() + " vs " + to.getParallelism() + ", forward, no"
                    + " exchange), since the checkpoint keeps only where to read again: keep"
                    + " pipeline.operator-chaining true and give the job one parallelism.");
        }
    }

    private static StreamNode node(StreamGraph graph, String uid) {
        for (StreamNode node : graph.getStreamNodes()) {
            if (uid.equals(node.getTransformationUID())) {
                return node;
            }
        }
        throw new IllegalStateException("the lake's job graph has no operator with uid " + uid);
    }
}
