package io.queenlake.connector.sink.committer;

import org.apache.flink.api.connector.sink2.Committer;

/** A commit request that records what the committer signalled, as Flink's own would. */
public final class RecordingCommitRequest<T> implements Committer.CommitRequest<T> {

    /** What became of the request. */
    public enum Outcome { COMMITTED, ALREADY_COMMITTED, RETRY_LATER, FAILED_KNOWN, FAILED_UNKNOWN }

    private final T committable;
    private int retries;
    private Outcome outcome = Outcome.COMMITTED;
    private Throwable failure;

    public RecordingCommitRequest(T committable) {
        this.committable = committable;
    }

    public Outcome outcome() {
        return outcome;
    }

    public Throwable failure() {
        return failure;
    }

    @Override
    public T getCommittable() {
        return committable;
    }

    @Override
    public int getNumberOfRetries() {
        return retries;
    }

    @Override
    public void signalFailedWithKnownReason(Throwable t) {
        outcome = Outcome.FAILED_KNOWN;
        failure = t;
    }

    @Override
    public void signalFailedWithUnknownReason(Throwable t) {
        outcome = Outcome.FAILED_UNKNOWN;
        failure = t;
    }

    @Override
    public void retryLater() {
        outcome = Outcome.RETRY_LATER;
        retries++;
    }

    @Override
    public void updateAndRetryLater(T committable) {
        retryLater();
    }

    @Override
    public void signalAlreadyCommitted() {
        outcome = Outcome.ALREADY_COMMITTED;
    }
}
