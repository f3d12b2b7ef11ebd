package io.queenlake.job.repair;

import io.queenlake.broker.kv.ObservedIntent;
import io.queenlake.format.manifest.Intent;
import java.util.Optional;

/**
 * What a repaired pointer at {@code k} means for the queue's intent document, which the repair
 * never writes nor deletes (the committer overwrites it with {@code expect} = its version): an
 * intent at or below {@code k} is stale, one of window {@code k + 1} is the open window the job
 * finishes first, one beyond that is not redone and is overwritten by the next commit; one of
 * window {@code k} itself is simply done.
 */
public final class IntentNote {

    private IntentNote() {}

    /** The line to print about the intent, or empty when there is none. */
    public static Optional<String> of(ObservedIntent observed, long k, String intentKey) {
        if (observed.intent().isEmpty()) {
            return Optional.empty();
        }
        Intent intent = observed.intent().get();
        String names = "the intent " + intentKey + " names window " + intent.k();
        if (intent.k() == k) {
            return Optional.of(names + ", the repaired pointer's own window: done, left as it is (the committer"
                    + " overwrites it with the intent of window " + (k + 1) + ")");
        }
        if (intent.k() < k) {
            return Optional.of(names + ", at or below the repaired k=" + k + ": it is stale and left as it is (the"
                    + " committer overwrites it with the intent of window " + (k + 1) + ")");
        }
        if (intent.k() == k + 1) {
            return Optional.of(names + ", the window after the repaired k=" + k + ": left as it is, so the job finishes"
                    + " that window first, rebuilt from the broker's log with the intent's bounds and format");
        }
        return Optional.of(names + ", beyond window " + (k + 1) + ": left as it is; the job does not redo it and its"
                + " next commit overwrites it");
    }
}
