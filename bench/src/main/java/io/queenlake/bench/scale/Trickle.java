package io.queenlake.bench.scale;

import io.queenlake.bench.OrderPayloads;
import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.PushResult;
import io.queenlake.broker.client.QueenClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The steady trickle: each queue gets one record every {@code intervalMs}, its partitions in turn,
 * the queues' schedules spread evenly over the interval, all paced by the wall clock. Record
 * {@code s} of the global sequence belongs to queue {@code s % Q} and is due {@code s * interval / Q}
 * after the start; every {@value #TICK_MS} ms one push (POST /api/v1/push, batched across queues,
 * at most {@value #MAX_BATCH} records a call) sends whatever is due. A push that fails ends the
 * trickle, and the run with it ({@link #failure()}).
 */
final class Trickle implements AutoCloseable {

    static final long TICK_MS = 100;
    static final int MAX_BATCH = 2_000;

    private final QueenClient client;
    private final List<String> queues;
    private final int partitions;
    private final long intervalNanos;
    private final OrderPayloads payloads = new OrderPayloads(26);
    private final AtomicLong pushed = new AtomicLong();
    private final AtomicLong maxBehindNanos = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean stopped;
    private Thread thread;

    Trickle(QueenClient client, List<String> queues, int partitions, long intervalMs) {
        this.client = client;
        this.queues = queues;
        this.partitions = partitions;
        this.intervalNanos = intervalMs * 1_000_000L;
    }

    static String partition(int p) {
        return "p" + p;
    }

    /** One record in every partition of every queue, so the job discovers them all from its start. */
    void seed() {
        List<PushItem> items = new ArrayList<>();
        for (String queue : queues) {
            for (int p = 0; p < partitions; p++) {
                items.add(PushItem.of(queue, partition(p), queue + "-seed-" + p, payloads.next()));
                if (items.size() == MAX_BATCH) {
                    push(items);
                    items.clear();
                }
            }
        }
        push(items);
    }

    void start() {
        thread = new Thread(this::run, "scale-trickle");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        long start = System.nanoTime();
        int q = queues.size();
        long next = 0; // the global sequence number of the next record to push
        try {
            while (!stopped) {
                long now = System.nanoTime();
                List<PushItem> items = new ArrayList<>();
                long firstDue = 0;
                for (long due; (due = start + next * intervalNanos / q) <= now; next++) {
                    if (items.isEmpty()) {
                        firstDue = due;
                    }
                    String queue = queues.get((int) (next % q));
                    long n = next / q;
                    items.add(PushItem.of(queue, partition((int) (n % partitions)), queue + "-" + n, payloads.next()));
                    if (items.size() == MAX_BATCH) {
                        pushDue(items, firstDue);
                        items.clear();
                    }
                }
                pushDue(items, firstDue);
                Thread.sleep(TICK_MS);
            }
        } catch (InterruptedException e) {
            // stopped
        } catch (Throwable t) {
            if (!stopped) {
                failure.set(t);
            }
        }
    }

    /** Pushes {@code items}, the oldest of them due at {@code firstDue}, and notes how late its answer came. */
    private void pushDue(List<PushItem> items, long firstDue) {
        if (!items.isEmpty()) {
            push(items);
            maxBehindNanos.accumulateAndGet(System.nanoTime() - firstDue, Math::max);
        }
    }

    private void push(List<PushItem> items) {
        if (items.isEmpty()) {
            return;
        }
        for (PushResult r : client.push(items)) {
            if (r.status() != PushResult.PushStatus.QUEUED) {
                throw new IllegalStateException("the broker answered " + r.status() + " for " + r.transactionId());
            }
        }
        pushed.addAndGet(items.size());
    }

    long pushed() {
        return pushed.get();
    }

    /** The longest a record's push was answered after it was due (up to a tick, plus the push calls' time). */
    long maxBehindMs() {
        return maxBehindNanos.get() / 1_000_000L;
    }

    /** Why the trickle stopped by itself, or null while it runs. */
    Throwable failure() {
        return failure.get();
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        if (thread != null) {
            thread.interrupt();
            thread.join(60_000);
        }
    }
}
