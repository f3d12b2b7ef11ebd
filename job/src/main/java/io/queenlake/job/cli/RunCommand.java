package io.queenlake.job.cli;

import io.queenlake.job.config.LakeSettings;
import io.queenlake.job.config.StartProbe;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobmaster.JobResult;

/**
 * {@code ./queen-lake run}: the job on a local MiniCluster in this JVM, with the Flink web UI on
 * {@code --web-port} (default 8081). Settings as for {@code flink run}: job arguments such as
 * {@code --queues orders}, or the {@code QUEEN_*} variables. With {@code --state-dir DIR}
 * checkpoints are retained there and a restart resumes from the newest complete one; without it a
 * restart resumes from the KV commit pointers. Runs until Ctrl-C, then cancels the job cleanly
 * (the lease is released, retained checkpoints stay).
 */
final class RunCommand implements Subcommand {

    static final int DEFAULT_WEB_PORT = 8081;
    static final Duration CHECKPOINT_INTERVAL = Duration.ofSeconds(10);

    @Override
    public String summary() {
        return "run the job on a local MiniCluster: [--web-port 8081] [--state-dir DIR] [--checkpoint-ms 10000]"
                + " plus the job's settings (--queues, --bucket, --endpoint, --queen-url, ... or QUEEN_* variables)";
    }

    @Override
    public int run(String[] args) throws Exception {
        JobSettingsArgs parsed = JobSettingsArgs.split("run", args, Set.of("web-port", "state-dir", "checkpoint-ms"), Set.of());
        int webPort = parsed.own().intValue("web-port", DEFAULT_WEB_PORT, 0, 65535);
        String stateDir = parsed.own().get("state-dir", null);
        long checkpointMs = parsed.own().longValue("checkpoint-ms", CHECKPOINT_INTERVAL.toMillis(), 100, 3_600_000);
        Map<String, String> env = System.getenv();
        LakeSettings settings = parsed.settings(env, new Configuration());
        System.out.println(settings.describe());
        Configuration conf = LauncherFileSystems.initialize(new Configuration(), settings);
        StartProbe.check(settings);
        LocalRun run = LocalRun.start(settings, conf, webPort, stateDir == null ? null : Path.of(stateDir),
                Duration.ofMillis(checkpointMs));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(run), "queen-lake-run-shutdown"));
        System.out.println("queen-lake is running " + settings.jobName());
        System.out.println("  web UI: " + run.webUrl());
        System.out.println(run.restoredFrom()
                .map(r -> "  resumed from retained checkpoint " + r.dir())
                .orElse(stateDir == null
                        ? "  no --state-dir: started without Flink state, continuing from the KV commit pointers"
                        : "  no complete checkpoint in " + Path.of(stateDir).toAbsolutePath()
                                + " yet: started from the KV commit pointers; checkpoints are retained there"));
        System.out.println("  Ctrl-C to stop");
        JobResult result = run.awaitEnd();
        if (result.getJobStatus().filter(status -> status == JobStatus.CANCELED).isPresent()) {
            return 0;
        }
        if (!result.isSuccess() && result.getSerializedThrowable().isPresent()) {
            Throwable cause = result.getSerializedThrowable().get().deserializeError(getClass().getClassLoader());
            throw new IllegalStateException("the job failed: " + rootMessage(cause), cause);
        }
        return 0;
    }

    private static void stop(LocalRun run) {
        try {
            run.close();
            System.out.println("queen-lake stopped");
        } catch (Exception e) {
            System.err.println("queen-lake: error while stopping the job: " + e.getMessage());
        }
    }

    static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.toString() : root.getMessage();
    }
}
