package io.queenlake.job.cli;

import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.RawJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The demo's steady trickle of sample orders: every {@code periodMs} a few orders to each queue,
 * spread over a handful of customer partitions, each with a transaction id so a retried push is
 * deduplicated by the broker. Runs on its own daemon thread until {@link #close()}.
 */
final class DemoProducer implements AutoCloseable {

    private static final int PARTITIONS = 4;

    private final QueenClient client;
    private final List<String> queues;
    private final long periodMs;
    private final String runId;
    private final OrderPayloads payloads = new OrderPayloads(160);
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long pushed;
    private volatile String lastError;

    DemoProducer(QueenClient client, List<String> queues, long periodMs, String runId) {
        this.client = client;
        this.queues = List.copyOf(queues);
        this.periodMs = periodMs;
        this.runId = runId;
        this.thread = new Thread(this::loop, "demo-producer");
        this.thread.setDaemon(true);
    }

    DemoProducer start() {
        thread.start();
        return this;
    }

    long pushed() {
        return pushed;
    }

    private void loop() {
        long seq = 0;
        while (running) {
            List<PushItem> batch = new ArrayList<>();
            for (String queue : queues) {
                for (int i = 0; i < 3; i++, seq++) {
                    batch.add(new PushItem(queue, "customer-" + (seq % PARTITIONS),
                            Optional.of(runId + "-" + seq), RawJson.of(payloads.order(seq))));
                }
            }
            try {
                client.push(batch);
                pushed += batch.size();
                lastError = null;
            } catch (RuntimeException e) {
                // The broker may be stopping under us, or briefly busy: report once, keep the rhythm.
                if (running && lastError == null) {
                    lastError = e.getMessage();
                    System.err.println("demo producer: a push failed (" + e.getMessage() + "); retrying");
                }
            }
            try {
                Thread.sleep(periodMs);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(5_000);
    }
}
