package io.queenlake.connector.sink.committer;

import io.queenlake.broker.client.Backoff;
import io.queenlake.connector.sink.SinkThreads;
import io.queenlake.connector.sink.committable.WindowCommittable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import org.apache.flink.runtime.execution.SuppressRestartsException;

/**
 * One lane per queue: each queue's windows commit one at a time, in the order submitted ({@code k}
 * order), while different queues commit at once, as many as {@code concurrency} allows. A lane
 * runs every window waiting in it as one {@link QueueCommitter} run; a retriable failure pauses only
 * that lane (200 ms doubling to 10 s) and its windows wait, a fenced queue's lane stops. Lanes
 * waiting for a thread take turns: a lane with more windows queues behind the others, so a queue
 * with a backlog never starves another. Nothing here is Flink's: {@link Outcomes} hears of each
 * window committed and of each lane that failed, on the lane's thread.
 */
final class CommitLanes implements AutoCloseable {

    /** How long {@link #close} lets the runs in flight end. */
    static final long FINISHING_MS = 10_000;

    /** Where the lanes report; called on their threads. */
    interface Outcomes {
        /** The window is in the lake: committed by this run ({@link CommitStep.Done}) or before ({@link CommitStep.Already}). */
        void committed(WindowCommittable window, CommitStep step);

        /**
         * The queue's lane stopped and dropped its windows: {@code fenced} when another writer or an
         * unreadable document stopped it ({@link CommitStep.Fenced}, no restart can heal it), or
         * any other failure.
         */
        void failed(String queue, RuntimeException failure, boolean fenced);
    }

    private final QueueCommitter committer;
    private final Outcomes outcomes;
    private final int concurrency;
    private final ExecutorService threads;
    private final ScheduledExecutorService pauses;
    private final Object lock = new Object();
    /** Guarded by {@link #lock}. */
    private final Map<String, Lane> lanes = new HashMap<>();
    /** Guarded by {@link #lock}: lanes with windows, not running, not pausing, in the order they became ready. */
    private final Deque<Lane> ready = new ArrayDeque<>();
    /** Guarded by {@link #lock}. */
    private int running;
    /** Guarded by {@link #lock}. */
    private boolean closed;

    /** Guarded by {@link #lock}, all of it. */
    private static final class Lane {
        final String queue;
        final Deque<WindowCommittable> windows = new ArrayDeque<>();
        boolean busy;
        boolean stopped;
        int failedRuns;

        Lane(String queue) {
            this.queue = queue;
        }
    }

    CommitLanes(QueueCommitter committer, int concurrency, Outcomes outcomes, String threadName) {
        this.committer = committer;
        this.outcomes = outcomes;
        this.concurrency = concurrency;
        this.threads = SinkThreads.pool(concurrency, threadName);
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, threadName + "-pauses");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        this.pauses = timer;
    }

    /** Appends each window to its queue's lane, in the order given; a lane already stopped ignores them. */
    void submit(List<WindowCommittable> windows) {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("the commit lanes are closed");
            }
            for (WindowCommittable window : windows) {
                Lane lane = lanes.computeIfAbsent(window.queue(), Lane::new);
                if (lane.stopped) {
                    continue;
                }
                lane.windows.addLast(window);
                if (!lane.busy) {
                    lane.busy = true;
                    ready.addLast(lane);
                }
            }
            startReady();
        }
    }

    /** Guarded by {@link #lock}. A lane is {@code busy} from the moment it is ready until its run ended and nothing is left. */
    private void startReady() {
        while (running < concurrency && !ready.isEmpty()) {
            Lane lane = ready.pollFirst();
            List<WindowCommittable> run = new ArrayList<>(lane.windows);
            running++;
            threads.execute(() -> run(lane, run));
        }
    }

    private void run(Lane lane, List<WindowCommittable> windows) {
        List<CommitStep> steps;
        RuntimeException failure = null;
        try {
            steps = committer.commit(lane.queue, windows);
        } catch (RuntimeException e) {
            steps = List.of();
            failure = e;
        } catch (Error e) {
            steps = List.of();
            failure = new IllegalStateException("the commit of queue '" + lane.queue + "' failed: " + e, e);
        }
        int settled = 0;
        while (settled < steps.size() && (steps.get(settled) instanceof CommitStep.Done
                || steps.get(settled) instanceof CommitStep.Already)) {
            outcomes.committed(windows.get(settled), steps.get(settled));
            settled++;
        }
        CommitStep ending = settled < steps.size() ? steps.get(settled) : null;
        if (ending instanceof CommitStep.Fenced fenced) {
            failure = fenced.failure();
        }
        ended(lane, settled, failure, ending instanceof CommitStep.Retry);
        if (failure != null) {
            outcomes.failed(lane.queue, failure, ending instanceof CommitStep.Fenced);
        }
    }

    /** A run ended: its settled windows leave the lane, which stops, pauses or takes its turn again. */
    private void ended(Lane lane, int settled, RuntimeException failure, boolean retry) {
        synchronized (lock) {
            running--;
            for (int i = 0; i < settled; i++) {
                lane.windows.pollFirst();
            }
            if (failure != null) {
                lane.stopped = true;
                lane.windows.clear();
                lane.busy = false;
            } else if (retry) {
                lane.failedRuns = settled > 0 ? 1 : lane.failedRuns + 1;
                pause(lane, Backoff.LAKE.after(lane.failedRuns).toMillis());
            } else {
                lane.failedRuns = 0;
                takeTurn(lane);
            }
            if (!closed) {
                startReady();
            }
        }
    }

    /** Guarded by {@link #lock}: back in turn when windows wait, idle otherwise. */
    private void takeTurn(Lane lane) {
        if (lane.windows.isEmpty()) {
            lane.busy = false;
        } else {
            ready.addLast(lane);
        }
    }

    /** Guarded by {@link #lock}: the lane stays busy (nothing overtakes its windows) and takes its turn after the pause. */
    private void pause(Lane lane, long millis) {
        if (closed) {
            return;
        }
        pauses.schedule(() -> {
            synchronized (lock) {
                if (!closed) {
                    ready.addLast(lane);
                    startReady();
                }
            }
        }, millis, TimeUnit.MILLISECONDS);
    }

    /**
     * Commits {@code windows} on lanes of their own and returns once each one is in the lake
     * ({@code each} hears of it, on a lane's thread) or its lane stopped; then throws the first
     * stop's failure, a fenced one as Flink's {@link SuppressRestartsException}. A retriable failure
     * is waited out: this returns when the bucket and the broker answer again.
     */
    static void commitAll(QueueCommitter committer, int concurrency, List<WindowCommittable> windows,
            BiConsumer<WindowCommittable, CommitStep> each, String threadName) throws InterruptedException {
        if (windows.isEmpty()) {
            return;
        }
        CountDownLatch settled = new CountDownLatch(windows.size());
        AtomicReference<RuntimeException> firstFailure = new AtomicReference<>();
        // Per queue, its windows not yet settled: a stopped lane settles all of them at once.
        Map<String, AtomicInteger> left = new ConcurrentHashMap<>();
        windows.forEach(w -> left.computeIfAbsent(w.queue(), q -> new AtomicInteger()).incrementAndGet());
        Outcomes waiting = new Outcomes() {
            @Override
            public void committed(WindowCommittable window, CommitStep step) {
                each.accept(window, step);
                left.get(window.queue()).decrementAndGet();
                settled.countDown();
            }

            @Override
            public void failed(String queue, RuntimeException failure, boolean fenced) {
                firstFailure.compareAndSet(null, fenced ? new SuppressRestartsException(failure) : failure);
                for (int n = left.get(queue).getAndSet(0); n > 0; n--) {
                    settled.countDown();
                }
            }
        };
        try (CommitLanes lanes = new CommitLanes(committer, concurrency, waiting, threadName)) {
            lanes.submit(windows);
            settled.await();
        }
        if (firstFailure.get() != null) {
            throw firstFailure.get();
        }
    }

    /**
     * Stops the lanes: no run starts and no paused lane resumes, while the runs in flight get
     * {@link #FINISHING_MS} to end, so a job stopped right after a checkpoint leaves the commits it
     * had started done, as Flink's committer did; a run still going then (a hanging bucket) is
     * interrupted. Windows not committed stay where the caller keeps them (Flink state).
     */
    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            ready.clear();
        }
        pauses.shutdownNow();
        threads.shutdown();
        try {
            if (!threads.awaitTermination(FINISHING_MS, TimeUnit.MILLISECONDS)) {
                threads.shutdownNow();
            }
        } catch (InterruptedException e) {
            threads.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
