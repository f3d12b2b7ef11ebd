package io.queenlake.source.testutils;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.scheduler.stopwithsavepoint.StopWithSavepointStoppingException;
import org.apache.flink.util.ExceptionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops a job with a savepoint as the Flink Kubernetes operator does (FLINK-33522).
 *
 * <p>Flink fails a stop whose savepoint is complete when an operator event reaches a source task
 * in the moment between the task finishing and the JobManager learning of it: the coordinator
 * cannot tell whether a finished task took the event, so it fails the task over. QueenSource's
 * enumerator sends every reader a pass each discovery interval (100 ms in tests), so a stop now
 * and then meets one. Flink says the savepoint is consistent; the job itself restarts. Like the
 * operator, this uses the savepoint and cancels the restarted job, so that no second reader of the
 * same instance outlives the stop.
 */
public final class SavepointStop {

    private static final Logger LOG = LoggerFactory.getLogger(SavepointStop.class);

    private SavepointStop() {}

    /** Stops {@code job} with a savepoint under {@code dir}; returns the savepoint's path once the job has ended. */
    public static String stop(JobClient job, Path dir, Duration timeout) throws Exception {
        String savepoint;
        try {
            savepoint = job.stopWithSavepoint(false, dir.toUri().toString(), SavepointFormatType.CANONICAL)
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Optional<StopWithSavepointStoppingException> failedStopping =
                    ExceptionUtils.findThrowable(e, StopWithSavepointStoppingException.class);
            if (failedStopping.isEmpty()) {
                throw e;
            }
            savepoint = failedStopping.get().getSavepointPath();
            LOG.warn("job {} failed while stopping after its savepoint {} completed (FLINK-33522); using the savepoint "
                    + "and cancelling the restarted job", job.getJobID(), savepoint, e);
            if (!status(job, timeout).isGloballyTerminalState()) {
                job.cancel().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
        awaitEnd(job, timeout);
        return savepoint;
    }

    /** Returns once {@code job} has ended (finished, failed or cancelled); fails the test after {@code timeout}. */
    public static void awaitEnd(JobClient job, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        JobStatus status = status(job, timeout);
        while (!status.isGloballyTerminalState()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("job " + job.getJobID() + " did not end within " + timeout + ", it is " + status);
            }
            Thread.sleep(20);
            status = status(job, timeout);
        }
    }

    private static JobStatus status(JobClient job, Duration timeout) throws Exception {
        return job.getJobStatus().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
