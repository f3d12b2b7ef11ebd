package io.queenlake.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.queenlake.job.config.LakeSettings;
import io.queenlake.job.config.SettingsLoader;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.junit.jupiter.api.Test;

/**
 * The job graph {@code LakeJob.build} makes: the committer runs in a task of its own, fed by the
 * writer over a forward edge, so a commit never holds up the window operator's thread, and the
 * sink's stateful operators keep the uids earlier releases' savepoints name.
 */
class LakeJobGraphTest {

    private static final LakeSettings SETTINGS = SettingsLoader.load(
            Map.of("QUEEN_S3_QUEUES", "orders,refunds", "QUEEN_S3_BUCKET", "lake"), new String[0], new Configuration());

    @Test
    void theCommitterHasATaskOfItsOwnFedByTheWriterOverAForwardEdge() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        env.setParallelism(3);
        LakeJob.build(env, SETTINGS);
        JobGraph graph = env.getStreamGraph().getJobGraph();

        List<String> tasks = graph.getVerticesSortedTopologicallyFromSources().stream().map(JobVertex::getName).toList();
        assertThat(tasks).as("no exchange between the source, the windows and the writer").containsExactly(
                "Source: Queen source -> Broker-clock windows -> Lake sink: Writer",
                "Lake sink: Commits -> Lake sink: Committer");

        JobVertex committer = graph.getVerticesSortedTopologicallyFromSources().get(1);
        assertThat(committer.getParallelism()).isEqualTo(3);
        assertThat(committer.getInputs()).singleElement().satisfies(edge -> {
            assertThat(edge.getSource().getProducer().getName())
                    .isEqualTo("Source: Queen source -> Broker-clock windows -> Lake sink: Writer");
            assertThat(edge.getSource().getProducer().getParallelism()).isEqualTo(3);
            assertThat(edge.getShipStrategyName()).isEqualTo("FORWARD");
        });
    }

    @Test
    void writerAndCommitterKeepTheUidsOfTheChainedGraphAndTheCommitOperatorHasAnExplicitOne() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        LakeJob.build(env, SETTINGS);
        StreamGraph graph = env.getStreamGraph();

        // The uids Flink gave the writer and the committer when they were chained (release 0.1.0).
        assertThat(graph.getStreamNodes()).extracting(StreamNode::getOperatorName, StreamNode::getTransformationUID)
                .contains(
                        tuple("Lake sink: Writer", "lake-sink"),
                        tuple("Lake sink: Committer", "Sink Committer: lake-sink"),
                        tuple("Lake sink: Commits", "lake-sink: commits"));
    }
}
