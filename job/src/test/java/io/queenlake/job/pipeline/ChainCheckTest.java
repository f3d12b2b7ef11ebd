package io.queenlake.job.pipeline;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.job.LakeJob;
import io.queenlake.job.config.LakeSettings;
import io.queenlake.job.config.SettingsLoader;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/**
 * The windows must run chained to the source (the reader checkpoints where to read again from the
 * windows of its own task), so a graph where Flink would not chain them is refused when it is
 * built, with one sentence naming the setting.
 */
class ChainCheckTest {

    private static final LakeSettings SETTINGS = SettingsLoader.load(
            Map.of("QUEEN_S3_QUEUES", "orders", "QUEEN_S3_BUCKET", "lake"), new String[0], new Configuration());

    @Test
    void theLakeGraphIsChainedAsBuilt() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        env.setParallelism(4);
        assertThatCode(() -> LakeJob.build(env, SETTINGS)).doesNotThrowAnyException();
    }

    @Test
    void operatorChainingTurnedOffIsRefusedNamingTheSetting() {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.OPERATOR_CHAINING, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        assertThatThrownBy(() -> LakeJob.build(env, SETTINGS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the broker-clock windows must run chained to the Queen source")
                .hasMessageContaining("pipeline.operator-chaining");
    }
}
