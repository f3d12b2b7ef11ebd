package io.queenlake.source.enumerator;

import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * Where the enumerator's lease rounds run. Flink runs every {@code callAsync} of an enumerator on
 * one worker thread, which the discovery runs also use, and a discovery run that plans where
 * thousands of new partitions start reads the broker and the bucket for seconds: a lease round
 * queued behind it let a lease of 5,000 queues expire (a stall over the TTL fails the job). So the
 * job's rounds run on a thread of their own ({@link #ownThread}) and hand their answer to the
 * coordinator thread, where the handler runs as before; tests that drive the rounds by hand keep
 * them on the context's worker ({@link #onContext}).
 */
interface LeaseRounds extends AutoCloseable {

    /** Runs {@code round} now and then every {@code periodMs}; {@code handler} gets each answer on the coordinator thread. */
    <T> void every(long periodMs, Callable<T> round, BiConsumer<T, Throwable> handler);

    /** Runs {@code round} once, soon; {@code handler} gets its answer on the coordinator thread. */
    <T> void once(Callable<T> round, BiConsumer<T, Throwable> handler);

    @Override
    void close();

    /** On a daemon thread of their own, named for the source. */
    static LeaseRounds ownThread(SplitEnumeratorContext<?> context, String threadName) {
        ScheduledThreadPoolExecutor thread = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        thread.setRemoveOnCancelPolicy(true);
        return new OwnThread(context, thread);
    }

    /** On the context's worker thread, as {@code callAsync} runs them. */
    static LeaseRounds onContext(SplitEnumeratorContext<?> context) {
        return new LeaseRounds() {
            @Override
            public <T> void every(long periodMs, Callable<T> round, BiConsumer<T, Throwable> handler) {
                context.callAsync(round, handler, 0, periodMs);
            }

            @Override
            public <T> void once(Callable<T> round, BiConsumer<T, Throwable> handler) {
                context.callAsync(round, handler);
            }

            @Override
            public void close() {}
        };
    }

    /** The job's: a round is never queued behind a discovery run. */
    final class OwnThread implements LeaseRounds {
        private final SplitEnumeratorContext<?> context;
        private final ScheduledExecutorService thread;

        private OwnThread(SplitEnumeratorContext<?> context, ScheduledExecutorService thread) {
            this.context = context;
            this.thread = thread;
        }

        @Override
        public <T> void every(long periodMs, Callable<T> round, BiConsumer<T, Throwable> handler) {
            thread.scheduleWithFixedDelay(() -> runAndHandOver(round, handler), 0, periodMs, TimeUnit.MILLISECONDS);
        }

        @Override
        public <T> void once(Callable<T> round, BiConsumer<T, Throwable> handler) {
            thread.execute(() -> runAndHandOver(round, handler));
        }

        private <T> void runAndHandOver(Callable<T> round, BiConsumer<T, Throwable> handler) {
            T answer = null;
            Throwable failure = null;
            try {
                answer = round.call();
            } catch (Throwable t) {
                failure = t;
            }
            T result = answer;
            Throwable error = failure;
            try {
                context.runInCoordinatorThread(() -> handler.accept(result, error));
            } catch (RejectedExecutionException e) {
                // The coordinator is closing: the enumerator releases its leases itself.
            }
        }

        @Override
        public void close() {
            thread.shutdownNow();
        }
    }
}
