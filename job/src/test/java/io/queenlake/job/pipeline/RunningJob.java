package io.queenlake.job.pipeline;

import io.queenlake.connector.sink.CrashHook;
import io.queenlake.connector.sink.LakeSink;
import io.queenlake.source.testutils.SavepointStop;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;

/**
 * A pipeline job started with {@code executeAsync}: its status, its failure, and the ways a test
 * ends it (cancel without a savepoint, stop with one) or snapshots it (a savepoint while it runs).
 */
record RunningJob(LakeJob spec, JobClient client, LakeSink sink) {

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);

    JobStatus status() {
        try {
            return client.getJobStatus().get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read the status of job " + spec.sink() + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Throws an AssertionError carrying the job's failure when it has ended while a test expected it running. */
    void assertRunning() {
        JobStatus status = status();
        if (status.isGloballyTerminalState()) {
            Throwable failure = failure(Duration.ofSeconds(5));
            // The root cause in the message: a CI log's summary shows messages, not causes.
            throw new AssertionError("job " + spec.sink() + " ended as " + status + " while it should run"
                    + (failure == null ? "" : ": " + rootCause(failure)), failure);
        }
    }

    private static String rootCause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.toString();
    }

    /** What the job failed with, waiting up to {@code timeout} for it to end; null if it ended without failure. */
    Throwable failure(Duration timeout) {
        try {
            client.getJobExecutionResult().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError("job " + spec.sink() + " did not end within " + timeout + ", it is " + status());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Cancels the job (no savepoint) and returns once it has ended. */
    void cancel() throws Exception {
        client.cancel().get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        SavepointStop.awaitEnd(client, CALL_TIMEOUT);
    }

    /** Stops the job with a savepoint under {@code dir}; returns the savepoint's path once the job has ended. */
    String stopWithSavepoint(Path dir) throws Exception {
        return SavepointStop.stop(client, dir, CALL_TIMEOUT);
    }

    /** Takes a savepoint under {@code dir} and lets the job run on. */
    String savepoint(Path dir) throws Exception {
        return client.triggerSavepoint(dir.toUri().toString(), SavepointFormatType.CANONICAL)
                .get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether the injected crash, if any, has fired in this JVM. */
    boolean crashed() {
        return sink.config().crashHook().map(CrashHook::fired).orElse(false);
    }
}
