package io.queenlake.source;

import io.queenlake.broker.client.QueenException;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.execution.SuppressRestartsException;

/**
 * The broker refused the job's token (401, or 403 for a token without the role a route needs): no
 * retry and no restart can heal that, as the reference sink treats 401 and 403 as terminal. Every
 * place of the job that calls the broker (the enumerator, the split reader, the window operator's
 * pointer restore, the committer) throws such a failure through {@link #terminal}, so Flink fails
 * the job once, with the client's sentence naming {@code QUEEN_TOKEN} as the root cause, instead of
 * restarting it for as long as its restart strategy allows.
 */
@Internal
public final class TokenRefusal {

    private TokenRefusal() {}

    /** The broker's refusal of the token among {@code failure} and its causes, if there is one. */
    public static Optional<QueenException> in(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof QueenException q && q.refusesToken()) {
                return Optional.of(q);
            }
        }
        return Optional.empty();
    }

    /**
     * {@code failure} as a task or the enumerator throws it: wrapped in a
     * {@link SuppressRestartsException} (which stops the job without a restart) when the broker
     * refused the token somewhere in its causes, else {@code failure} itself.
     */
    public static RuntimeException terminal(RuntimeException failure) {
        if (failure instanceof SuppressRestartsException || in(failure).isEmpty()) {
            return failure;
        }
        return new SuppressRestartsException(failure);
    }
}
