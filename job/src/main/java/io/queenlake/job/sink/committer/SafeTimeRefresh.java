package io.queenlake.job.sink.committer;

import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.QueenException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the broker safeTime behind {@code lagSeconds}, read off the commit path: every commit call
 * asks for a read, and a {@code partitions/changed} call runs on the given single thread, so at
 * most one is in flight, each starting at least {@link #EVERY} after the one before. A request
 * made while a read waits is served by it; one made while a read runs gets a read of its own after
 * it, so every commit call is followed by a fresh safeTime, at most {@link #EVERY} later.
 */
final class SafeTimeRefresh {

    private static final Logger LOG = LoggerFactory.getLogger(SafeTimeRefresh.class);

    /** The least time between two reads' starts: one call a second costs the broker nothing. */
    static final Duration EVERY = Duration.ofSeconds(1);

    private final QueenClient broker;
    private final LongConsumer record;
    private final ExecutorService thread;
    /** A read is asked for and has not started yet. */
    private final AtomicBoolean pending = new AtomicBoolean();
    private volatile long lastStartNanos = System.nanoTime() - EVERY.toNanos();

    /** {@code thread} must run one task at a time: that is what keeps one read in flight. */
    SafeTimeRefresh(QueenClient broker, LongConsumer record, ExecutorService thread) {
        this.broker = broker;
        this.record = record;
        this.thread = thread;
    }

    /** Asks for a read; returns at once. */
    void request() {
        if (!pending.compareAndSet(false, true)) {
            return;
        }
        long waitNanos = lastStartNanos + EVERY.toNanos() - System.nanoTime();
        Executor when = waitNanos <= 0 ? thread : CompletableFuture.delayedExecutor(waitNanos, TimeUnit.NANOSECONDS, thread);
        try {
            when.execute(this::read);
        } catch (RejectedExecutionException closed) {
            pending.set(false);
        }
    }

    private void read() {
        // The start is set before the request is cleared, so the next request waits from it.
        lastStartNanos = System.nanoTime();
        pending.set(false);
        try {
            record.accept(broker.safeTimeMicros());
        } catch (QueenException e) {
            LOG.debug("could not read the broker's safeTime for lagSeconds: {}", e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("could not read the broker's safeTime for lagSeconds; lagSeconds keeps its last value", e);
        }
    }

    void close() {
        thread.shutdownNow();
    }
}
