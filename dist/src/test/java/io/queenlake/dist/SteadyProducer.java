package io.queenlake.dist;

import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.PushResult;
import io.queenlake.broker.client.QueenClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Pushes from a thread of its own until stopped: each round one record to every partition of every
 * queue, each with a fresh transaction id, and remembers every transaction id the broker queued.
 */
final class SteadyProducer {

    private final QueenClient client;
    private final List<String> queues;
    private final List<String> partitions;
    private final Duration pause;
    private final Map<String, Set<String>> queued = new LinkedHashMap<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean stopping;
    private int round;

    SteadyProducer(QueenClient client, List<String> queues, List<String> partitions, Duration pause) {
        this.client = client;
        this.queues = List.copyOf(queues);
        this.partitions = List.copyOf(partitions);
        this.pause = pause;
        queues.forEach(q -> queued.put(q, ConcurrentHashMap.newKeySet()));
        this.thread = new Thread(this::pushUntilStopped, "steady-producer");
        thread.setDaemon(true);
    }

    /** Pushes in the background from now on. */
    void start() {
        thread.start();
    }

    /** Stops after the round under way; fails if a push failed. */
    void stop() throws InterruptedException {
        stopping = true;
        thread.join(30_000);
        if (failure.get() != null) {
            throw new AssertionError("the producer failed", failure.get());
        }
    }

    /** The transaction ids the broker queued, per queue. */
    Map<String, Set<String>> queued() {
        return queued;
    }

    long count() {
        return queued.values().stream().mapToLong(Set::size).sum();
    }

    private void pushUntilStopped() {
        try {
            while (!stopping) {
                pushRound();
                Thread.sleep(pause.toMillis());
            }
        } catch (Throwable t) {
            failure.set(t);
        }
    }

    /** One push call: a record to every partition of every queue. */
    synchronized void pushRound() {
        round++;
        List<PushItem> items = new ArrayList<>();
        for (String queue : queues) {
            for (String partition : partitions) {
                String tx = queue + "-" + partition + "-" + round;
                items.add(PushItem.of(queue, partition, tx, "{\"queue\":\"" + queue + "\",\"round\":" + round + "}"));
            }
        }
        for (PushResult r : client.push(items)) {
            if (r.status() != PushResult.PushStatus.QUEUED) {
                throw new IllegalStateException("the broker did not queue " + r.transactionId() + ": " + r.status());
            }
            queued.get(items.get(r.index()).queue()).add(r.transactionId());
        }
    }
}
