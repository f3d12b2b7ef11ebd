package io.queenlake.connector.sink.committer;

import io.queenlake.broker.kv.ObservedPointer;

/** What became of one window in the committer, or of the run of one queue's windows it ended. */
sealed interface CommitStep {

    /** Committed by this job just now; the pointer is at {@code now}. */
    record Done(ObservedPointer now) implements CommitStep {}

    /** Found committed before (a replay), its objects proven complete. */
    record Already() implements CommitStep {}

    /**
     * Another writer moved the pointer ({@link LakeFencedException}), or left one that does not
     * decode ({@code UnreadableDocumentException}): the job stops for good.
     */
    record Fenced(RuntimeException failure) implements CommitStep {}

    /** A retriable bucket or broker failure: this window and the later ones are retried. */
    record Retry(Exception cause) implements CommitStep {}
}
