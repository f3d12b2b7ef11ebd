package io.queenlake.job.cli;

import io.queenlake.connector.metrics.MetricDumpFrame;
import io.queenlake.job.LakeJob;
import io.queenlake.job.config.LakeSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The job on a MiniCluster in this JVM, with the Flink web UI and REST API on {@code webPort}
 * (0 picks a free port), for {@code ./queen-lake run} and {@code demo}. It owns the cluster's life:
 * start, submit, cancel on {@link #close()}; a failing job is restarted a bounded number of times
 * ({@link #boundedRestarts}). With a state folder, checkpoints are retained there on
 * cancellation and the newest complete one is restored at the next start; without, the job starts
 * without Flink state and continues from the KV commit pointers.
 */
final class LocalRun implements AutoCloseable {

    /** Restarts before a persistent failure ends the run ({@link #boundedRestarts}). */
    static final int RESTART_ATTEMPTS = 8;
    /** A run this long without a failure has its restart attempts back. */
    static final Duration RESTART_RESET = Duration.ofMinutes(10);

    private final MiniCluster cluster;
    private final JobID job;
    private final URI webUrl;
    private final Optional<RetainedCheckpoints.Retained> restoredFrom;
    /** Without a state folder, where this run's checkpoints go (deleted with the run). */
    private final Optional<Path> scratch;
    private boolean closed;

    private LocalRun(MiniCluster cluster, JobID job, URI webUrl, Optional<RetainedCheckpoints.Retained> restoredFrom,
            Optional<Path> scratch) {
        this.cluster = cluster;
        this.job = job;
        this.webUrl = webUrl;
        this.restoredFrom = restoredFrom;
        this.scratch = scratch;
    }

    /** This run's own checkpoint folder when it was started without a state folder. */
    Optional<Path> scratchCheckpoints() {
        return scratch;
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // A temporary folder: what is left, the system's cleaning takes.
        }
    }

    /**
     * Without a state folder the run's checkpoints go to a scratch folder of its own, deleted when
     * it ends: none is kept and none is restored, as before, but thousands of queues fit.
     *
     * @param base the Flink configuration to start from (the lake's {@code s3.*} options and the
     *     reporters, for instance)
     * @param stateDir where checkpoints are retained and restored from, or null
     */
    static LocalRun start(LakeSettings settings, Configuration base, int webPort, Path stateDir,
            Duration checkpointInterval) throws Exception {
        Configuration conf = new Configuration(base);
        conf.setString("rest.address", "127.0.0.1");
        conf.setString("rest.bind-address", "127.0.0.1");
        conf.setString("rest.port", Integer.toString(webPort));
        conf.setString("execution.checkpointing.interval", checkpointInterval.toMillis() + " ms");
        conf.setString("execution.checkpointing.mode", "EXACTLY_ONCE");
        conf.setString("pipeline.name", settings.jobName());
        metricDumpRoom(conf);
        boundedRestarts(conf);
        Optional<RetainedCheckpoints.Retained> restore = Optional.empty();
        Optional<Path> scratch = Optional.empty();
        if (stateDir == null) {
            // Without a folder Flink keeps checkpoints in the JobManager's memory, at most 5 MiB: a
            // broker of thousands of queues outgrows it (about 100 bytes a partition) and every
            // checkpoint fails. A scratch folder holds them for this run and goes with it.
            scratch = Optional.of(Files.createTempDirectory("queen-lake-checkpoints-"));
            conf.setString("execution.checkpointing.dir", scratch.get().toUri().toString());
            conf.setString("execution.checkpointing.externalized-checkpoint-retention", "DELETE_ON_CANCELLATION");
        } else {
            Path checkpoints = stateDir.toAbsolutePath().resolve("checkpoints");
            conf.setString("execution.checkpointing.dir", checkpoints.toUri().toString());
            conf.setString("execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION");
            conf.setString("execution.checkpointing.num-retained", "3");
            restore = RetainedCheckpoints.newest(checkpoints);
        }
        int slots = Math.max(2, Runtime.getRuntime().availableProcessors());
        if (!conf.contains(CoreOptions.DEFAULT_PARALLELISM)) {
            // As Flink's local environment does: one subtask per core, so the queues' reading and
            // committing spread over every core (at 1, one task read and committed them all).
            conf.set(CoreOptions.DEFAULT_PARALLELISM, slots);
        }
        StreamExecutionEnvironment env = new StreamExecutionEnvironment(conf);
        LakeJob.build(env, settings);
        JobGraph graph = env.getStreamGraph().getJobGraph();
        restore.ifPresent(r -> graph.setSavepointRestoreSettings(SavepointRestoreSettings.forPath(r.dir().toUri().toString(), false)));

        MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(slots)
                .build());
        try {
            try {
                cluster.start();
            } catch (Exception e) {
                if (webPort != 0 && LauncherChecks.bindFailure(e).isPresent()) {
                    // Taken between the launcher's check and the start, or by something bound to another address.
                    throw new IllegalStateException(LauncherChecks.portTaken("web-port", webPort), e);
                }
                throw e;
            }
            URI web = cluster.getRestAddress().get(30, TimeUnit.SECONDS);
            JobID id = cluster.submitJob(graph).get(60, TimeUnit.SECONDS).getJobID();
            return new LocalRun(cluster, id, web, restore, scratch);
        } catch (Exception e) {
            cluster.close();
            scratch.ifPresent(LocalRun::deleteQuietly);
            throw e;
        }
    }

    /**
     * Room in the web UI's metric dump for thousands of queues ({@link MetricDumpFrame}), as the
     * clusters' configurations give it, unless {@code conf} sets the frame size itself.
     */
    static Configuration metricDumpRoom(Configuration conf) {
        MetricDumpFrame.SETTINGS.forEach((key, value) -> {
            if (!conf.containsKey(key) && !conf.containsKey(key.replace("pekko.", "akka."))) {
                conf.setString(key, value);
            }
        });
        return conf;
    }

    /**
     * Unless {@code conf} chooses one, Flink's exponential-delay restart strategy with a bounded
     * number of attempts: a failure that heals (a bucket back after a minute, the late-record guard's
     * one restart) is restarted after 1 s, 2 s, 4 s ... up to 30 s, and a failure that persists through
     * {@value #RESTART_ATTEMPTS} restarts (about two minutes) ends the run with its cause instead of
     * looping. The count starts again after {@link #RESTART_RESET} without a failure. A refused token
     * or a fenced queue stops the job at once, whatever the strategy.
     */
    static Configuration boundedRestarts(Configuration conf) {
        if (conf.contains(RestartStrategyOptions.RESTART_STRATEGY)) {
            return conf;
        }
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "exponential-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF, Duration.ofSeconds(1));
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF, Duration.ofSeconds(30));
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_BACKOFF_MULTIPLIER, 2.0);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_JITTER_FACTOR, 0.1);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS, RESTART_ATTEMPTS);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_RESET_BACKOFF_THRESHOLD, RESTART_RESET);
        return conf;
    }

    URI webUrl() {
        return webUrl;
    }

    JobID jobId() {
        return job;
    }

    Optional<RetainedCheckpoints.Retained> restoredFrom() {
        return restoredFrom;
    }

    /** Completes when the job ends (it runs until cancelled, unless it fails for good). */
    CompletableFuture<JobResult> end() {
        return cluster.requestJobResult(job);
    }

    /** Cancels the job (its retained checkpoints stay), waits for it to end, and stops the cluster. */
    @Override
    public synchronized void close() throws Exception {
        if (closed) {
            return;
        }
        closed = true;
        try {
            JobStatus status = cluster.getJobStatus(job).get(10, TimeUnit.SECONDS);
            if (!status.isGloballyTerminalState()) {
                cluster.cancelJob(job).get(30, TimeUnit.SECONDS);
                cluster.requestJobResult(job).get(60, TimeUnit.SECONDS);
            }
        } finally {
            cluster.close();
            scratch.ifPresent(LocalRun::deleteQuietly);
        }
    }
}
