package io.queenlake.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.job.config.LakeSettings;
import io.queenlake.job.config.SettingsException;
import io.queenlake.job.config.SettingsLoader;
import io.queenlake.connector.pipeline.LakePipeline;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.junit.jupiter.api.Test;

/** What {@code LakeJob.build} adds to an environment, without running it. */
class LakeJobBuildTest {

    private static final LakeSettings SETTINGS = SettingsLoader.load(
            Map.of("QUEEN_S3_QUEUES", "orders", "QUEEN_S3_BUCKET", "lake"), new String[0], new Configuration());

    @Test
    void theGraphIsSourceWindowsAndSinkUnderTheirFixedUids() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        env.enableCheckpointing(1_000);
        LakeJob.build(env, SETTINGS);
        assertThat(env.getStreamGraph().getStreamNodes().stream().map(StreamNode::getTransformationUID))
                .contains(LakePipeline.SOURCE_UID, LakePipeline.WINDOWS_UID);
        assertThat(env.getCheckpointConfig().getCheckpointInterval()).isEqualTo(1_000);
    }

    @Test
    void checkpointingLeftOffIsTurnedOnExactlyOnceSinceTheLakeCommitsAtCheckpoints() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        LakeJob.build(env, SETTINGS);
        assertThat(env.getCheckpointConfig().isCheckpointingEnabled()).isTrue();
        assertThat(env.getCheckpointConfig().getCheckpointInterval()).isEqualTo(30_000);
        assertThat(env.getCheckpointConfig().getCheckpointingConsistencyMode()).isEqualTo(CheckpointingMode.EXACTLY_ONCE);
    }

    @Test
    void atLeastOnceCheckpointsAreRefused() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        env.enableCheckpointing(1_000, CheckpointingMode.AT_LEAST_ONCE);
        assertThatThrownBy(() -> LakeJob.build(env, SETTINGS))
                .isInstanceOf(SettingsException.class)
                .hasMessage("execution.checkpointing.mode=AT_LEAST_ONCE could put a replayed record into a window twice:"
                        + " set it to EXACTLY_ONCE.");
    }
}
