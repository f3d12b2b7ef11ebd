package io.queenlake.connector.sink;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.connector.pipeline.LakePipeline;
import io.queenlake.connector.testutils.TestWindows;
import io.queenlake.connector.window.ClosedWindow;
import java.net.URI;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Runs a sink job the way the pipeline will: a bounded, checkpointed, replayable source of closed
 * windows (one window per checkpoint, every 100 ms) into the {@link LakeSink}, with Flink's fixed
 * delay restart so an injected crash or an outage is recovered by Flink itself.
 */
public final class SinkJobs {

    private SinkJobs() {}

    public static LakeSinkBuilder sink(String root, URI broker) {
        return LakeSink.builder().root(root).brokerUrl(broker.toString()).requestTimeout(Duration.ofSeconds(5));
    }

    public static QueenClient client(URI broker) {
        return HttpQueenClient.builder().baseUrl(broker.toString()).build();
    }

    /** Runs the job to its end; throws what the job failed with. */
    public static void run(LakeSink sink, TestWindows world, int restartAttempts) throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, restartAttempts > 0 ? "fixed-delay" : "none");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, Math.max(restartAttempts, 1));
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.configure(conf);
        env.setParallelism(1);
        env.enableCheckpointing(100);
        // Source and writer are chained: windows pass by reference, no ClosedWindow serializer is needed here.
        env.getConfig().enableObjectReuse();
        DataGeneratorSource<ClosedWindow> source = new DataGeneratorSource<>(world, world.count(),
                RateLimiterStrategy.perCheckpoint(1), TypeInformation.of(ClosedWindow.class));
        // A uid as LakePipeline gives it: the sink's hand-off to the committer has one, so Flink asks the sink for one.
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "closed windows").sinkTo(sink).uid(LakePipeline.SINK_UID);
        env.execute("lake-sink-test");
    }
}
