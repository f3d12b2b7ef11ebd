package io.queenlake.bench.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.CompletedCheckpointStats;
import org.apache.flink.runtime.checkpoint.TaskStateStats;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * One MiniCluster in this JVM running one benchmark job: one task manager with as many slots as the
 * job's parallelism, exactly-once checkpoints into a local folder at a fixed interval. It owns the cluster's
 * life and reads the job's checkpoint statistics (what the REST API's checkpoints page shows).
 */
final class BenchCluster implements AutoCloseable {

    private final MiniCluster cluster;
    private JobID job;

    private BenchCluster(MiniCluster cluster) {
        this.cluster = cluster;
    }

    /**
     * The environment a run builds its graph in, named {@code jobName}: checkpointing every
     * {@code interval}, exactly once, into {@code checkpoints} (a backfill's open windows are far
     * larger than the 5 MiB the JobManager's memory would hold); then {@code config}'s keys, its local
     * files (RocksDB's) beside the checkpoints.
     */
    static StreamExecutionEnvironment environment(String jobName, int parallelism, Duration interval, Path checkpoints,
            RunConfig config) {
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.dir", checkpoints.toUri().toString());
        conf.setString("pipeline.name", jobName);
        conf.setString("execution.checkpointing.interval", interval.toMillis() + " ms");
        conf.setString("execution.checkpointing.mode", "EXACTLY_ONCE");
        conf.setString("restart-strategy.type", "none");
        config.applyTo(conf, checkpoints.resolveSibling(checkpoints.getFileName() + "-local"));
        StreamExecutionEnvironment env = new StreamExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        return env;
    }

    /** Starts a cluster and submits the graph built in {@code env}. */
    static BenchCluster submit(StreamExecutionEnvironment env) throws Exception {
        JobGraph graph = env.getStreamGraph().getJobGraph();
        Configuration conf = new Configuration();
        conf.setString("rest.address", "127.0.0.1");
        conf.setString("rest.bind-address", "127.0.0.1");
        conf.setString("rest.port", "0");
        conf.setString("metrics.reporter.source-progress.factory.class", SourceProgress.Factory.class.getName());
        SourceProgress.reset();
        MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(env.getParallelism())
                .build());
        BenchCluster bench = new BenchCluster(cluster);
        try {
            cluster.start();
            bench.job = cluster.submitJob(graph).get(60, TimeUnit.SECONDS).getJobID();
            return bench;
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
    }

    /** Fails with the job's end when it is no longer running (the run can never finish then). */
    void assertRunning() throws Exception {
        JobStatus status = cluster.getJobStatus(job).get(10, TimeUnit.SECONDS);
        if (status.isGloballyTerminalState()) {
            Throwable cause = cluster.requestJobResult(job).get(10, TimeUnit.SECONDS).getSerializedThrowable()
                    .map(t -> (Throwable) t).orElse(null);
            throw new IllegalStateException("the benchmark job ended " + status + " before the corpus was committed", cause);
        }
    }

    /** The checkpoint statistics of the job so far. */
    CheckpointStatsSnapshot checkpoints() throws Exception {
        return cluster.getExecutionGraph(job).get(10, TimeUnit.SECONDS).getCheckpointStatsSnapshot();
    }

    /**
     * The largest completed checkpoint of the job so far, from its checkpoint statistics (the
     * summary of every completed checkpoint since the start, what the web UI's "Summary" shows as
     * the maximum): {@code state} its full size, {@code checkpointed} what it wrote itself (smaller
     * only for incremental checkpoints, which reuse files of earlier ones). Both 0 before the first.
     */
    record PeakCheckpoint(long stateBytes, long checkpointedBytes) {
        PeakCheckpoint max(PeakCheckpoint o) {
            return new PeakCheckpoint(Math.max(stateBytes, o.stateBytes), Math.max(checkpointedBytes, o.checkpointedBytes));
        }
    }

    PeakCheckpoint peakCheckpoint() throws Exception {
        CheckpointStatsSnapshot stats = checkpoints();
        if (stats.getCounts().getNumberOfCompletedCheckpoints() == 0) {
            return new PeakCheckpoint(0, 0);
        }
        return new PeakCheckpoint(stats.getSummaryStats().getStateSizeStats().getMaximum(),
                stats.getSummaryStats().getCheckpointedSize().getMaximum());
    }

    /**
     * The largest state each task (the chained operators' names) held in the completed checkpoints
     * the statistics still list (the last ten by default), in bytes.
     */
    Map<String, Long> stateByTask() throws Exception {
        AccessExecutionGraph graph = cluster.getExecutionGraph(job).get(10, TimeUnit.SECONDS);
        Map<String, Long> sizes = new LinkedHashMap<>();
        for (AbstractCheckpointStats checkpoint : graph.getCheckpointStatsSnapshot().getHistory().getCheckpoints()) {
            if (!(checkpoint instanceof CompletedCheckpointStats)) {
                continue;
            }
            for (TaskStateStats task : checkpoint.getAllTaskStateStats()) {
                sizes.merge(graph.getJobVertex(task.getJobVertexId()).getName(), task.getStateSize(), Math::max);
            }
        }
        return sizes;
    }

    long completedCheckpoints() throws Exception {
        return checkpoints().getCounts().getNumberOfCompletedCheckpoints();
    }

    /** Cancels the job (the lake sink releases its leases) and stops the cluster. */
    @Override
    public void close() throws Exception {
        try {
            if (job != null && !cluster.getJobStatus(job).get(10, TimeUnit.SECONDS).isGloballyTerminalState()) {
                cluster.cancelJob(job).get(30, TimeUnit.SECONDS);
                cluster.requestJobResult(job).get(60, TimeUnit.SECONDS);
            }
        } finally {
            cluster.close();
        }
    }
}
