package io.queenlake.source.enumerator;

import io.queenlake.source.TokenRefusal;
import java.util.concurrent.CompletionException;
import org.apache.flink.util.FlinkRuntimeException;

/** What the enumerator fails with when a broker call it ran through {@code callAsync} failed. */
final class AsyncFailures {

    private AsyncFailures() {}

    static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }

    /**
     * The cause as a {@link FlinkRuntimeException} that keeps its message; a refused token as one
     * that stops the job without a restart ({@link TokenRefusal}).
     */
    static RuntimeException failure(Throwable error) {
        Throwable cause = unwrap(error);
        if (cause instanceof FlinkRuntimeException f) {
            return TokenRefusal.terminal(f);
        }
        return TokenRefusal.terminal(
                new FlinkRuntimeException(cause.getMessage() == null ? cause.toString() : cause.getMessage(), cause));
    }
}
