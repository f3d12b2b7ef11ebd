package io.queenlake.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.junit.jupiter.api.Test;

/** {@code run} and {@code demo} restart a failing job a bounded number of times, not for ever. */
class LocalRunRestartsTest {

    @Test
    void aLocalRunRestartsWithABoundedExponentialDelay() {
        Configuration conf = LocalRun.boundedRestarts(new Configuration());

        assertThat(conf.get(RestartStrategyOptions.RESTART_STRATEGY)).isEqualTo("exponential-delay");
        assertThat(conf.get(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS))
                .isEqualTo(LocalRun.RESTART_ATTEMPTS).isLessThan(Integer.MAX_VALUE);
        assertThat(conf.get(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF))
                .isEqualTo(Duration.ofSeconds(1));
        assertThat(conf.get(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF))
                .isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void aRestartStrategyTheConfigurationChoosesIsKept() {
        Configuration chosen = new Configuration();
        chosen.set(RestartStrategyOptions.RESTART_STRATEGY, "none");

        assertThat(LocalRun.boundedRestarts(chosen).get(RestartStrategyOptions.RESTART_STRATEGY)).isEqualTo("none");
    }
}
