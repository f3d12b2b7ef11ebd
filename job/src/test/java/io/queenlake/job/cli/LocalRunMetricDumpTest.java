package io.queenlake.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.connector.metrics.MetricDumpFrame;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RpcOptions;
import org.junit.jupiter.api.Test;

/**
 * {@code run} and {@code demo} give the web UI's metric dump the room of the shipped configuration,
 * so the task's backpressure and busy time still show with thousands of queues; a frame size the
 * user chose stays.
 */
class LocalRunMetricDumpTest {

    @Test
    void aLocalRunReadsTheMetricsOfThousandsOfQueuesInOneFrame() {
        Configuration conf = LocalRun.metricDumpRoom(new Configuration());

        assertThat(MemorySize.parse(conf.get(RpcOptions.FRAMESIZE)).getBytes()).isEqualTo(MetricDumpFrame.BYTES);
    }

    @Test
    void aFrameSizeTheUserChoseStays() {
        Configuration chosen = new Configuration();
        chosen.setString("pekko.framesize", "20971520b");

        assertThat(LocalRun.metricDumpRoom(chosen).get(RpcOptions.FRAMESIZE)).isEqualTo("20971520b");
    }
}
