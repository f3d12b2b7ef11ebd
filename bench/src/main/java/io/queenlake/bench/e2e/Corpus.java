package io.queenlake.bench.e2e;

import io.queenlake.bench.OrderPayloads;
import io.queenlake.broker.client.FetchEntry;
import io.queenlake.broker.client.FetchRequest;
import io.queenlake.broker.client.FetchedPartition;
import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.PushResult;
import io.queenlake.broker.client.QueenClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One seeded corpus in the dev broker: {@code records} payloads spread round-robin over
 * {@code partitions} partitions split evenly between the queues. It owns pushing the corpus (once:
 * a broker whose data dir already holds it is reused) and reading back what the broker holds.
 */
record Corpus(String name, List<String> queues, int partitions, int records, long seed) {

    static final int PUSH_BATCH = 500;

    String partition(int i) {
        return "customer-" + String.format("%05d", i % partitions);
    }

    String queue(int i) {
        return queues.get((i % partitions) % queues.size());
    }

    /** Pushes the corpus unless the broker already holds it whole; fails on a partial or different corpus. */
    Census ensurePushed(QueenClient client, int threads) throws Exception {
        return ensurePushed(client, threads, java.time.Duration.ZERO);
    }

    /**
     * As {@link #ensurePushed(QueenClient, int)}, no faster than in {@code atLeast}: batch {@code b} of
     * {@code n} is not pushed before {@code b / n} of it has passed, so the broker's stamps (push
     * time) span about that long however small the corpus.
     */
    Census ensurePushed(QueenClient client, int threads, java.time.Duration atLeast) throws Exception {
        Census before = Census.read(client, this);
        if (before.records() == records) {
            System.out.printf("corpus %s: reusing the %,d records already in the broker%n", name, records);
            return before;
        }
        if (before.records() != 0) {
            throw new IllegalStateException("the broker's data dir holds " + before.records() + " records in the queues "
                    + queues + " instead of " + records + ": name other queues (queues=...) or delete the data dir"
                    + " (see bench/README.md) and run again.");
        }
        long t0 = System.nanoTime();
        int batches = (records + PUSH_BATCH - 1) / PUSH_BATCH;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> pushed = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                pushed.add(pool.submit(() -> {
                    // One payload sequence per batch: seeded by batch number, so the corpus does not depend on threads.
                    for (int b = thread; b < batches; b += threads) {
                        long due = t0 + atLeast.toNanos() * b / Math.max(1, batches - 1);
                        long wait = due - System.nanoTime();
                        if (wait > 0) {
                            Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
                        }
                        pushBatch(client, b);
                    }
                    return null;
                }));
            }
            for (Future<?> f : pushed) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.printf("corpus %s: pushed %,d records over %d partitions of %s in %.1f s%n", name, records,
                partitions, queues, (System.nanoTime() - t0) / 1e9);
        return Census.read(client, this);
    }

    /** The payload bytes of the whole corpus, from its seeds (UTF-8 of ASCII text: one byte a char). */
    long payloadBytes() {
        long bytes = 0;
        int batches = (records + PUSH_BATCH - 1) / PUSH_BATCH;
        for (int b = 0; b < batches; b++) {
            OrderPayloads payloads = new OrderPayloads(seed * 1_000_003L + b);
            for (int i = b * PUSH_BATCH; i < Math.min(records, (b + 1) * PUSH_BATCH); i++) {
                bytes += payloads.next().length();
            }
        }
        return bytes;
    }

    private void pushBatch(QueenClient client, int batch) {
        OrderPayloads payloads = new OrderPayloads(seed * 1_000_003L + batch);
        List<PushItem> items = new ArrayList<>(PUSH_BATCH);
        for (int i = batch * PUSH_BATCH; i < Math.min(records, (batch + 1) * PUSH_BATCH); i++) {
            items.add(PushItem.of(queue(i), partition(i), name + "-" + i, payloads.next()));
        }
        for (PushResult r : client.push(items)) {
            if (r.status() != PushResult.PushStatus.QUEUED) {
                throw new IllegalStateException("the broker answered " + r.status() + " for " + r.transactionId()
                        + ": delete the data dir and push the corpus again.");
            }
        }
    }

    /** The partitions of {@code queue}, by name. */
    List<String> partitionsOf(String queue) {
        List<String> names = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            if (queue(p).equals(queue)) {
                names.add(partition(p));
            }
        }
        return names;
    }

    /**
     * What the broker holds of a corpus, per queue: how many records and the newest stamp (the
     * pointer that covers it has {@code tEnd} above it).
     */
    record Census(Map<String, Long> counts, Map<String, Long> lastStamps, Map<String, Long> firstStamps) {

        long records() {
            return counts.values().stream().mapToLong(Long::longValue).sum();
        }

        /** The broker time from the queue's oldest stamp to its newest, in milliseconds. */
        long spanMs(String queue) {
            return (lastStamps.get(queue) - firstStamps.get(queue)) / 1000;
        }

        static Census read(QueenClient client, Corpus corpus) {
            Map<String, Long> counts = new LinkedHashMap<>();
            Map<String, Long> stamps = new LinkedHashMap<>();
            Map<String, Long> firsts = new LinkedHashMap<>();
            for (String queue : corpus.queues()) {
                List<String> partitions = corpus.partitionsOf(queue);
                long count = 0;
                long last = 0;
                long first = Long.MAX_VALUE;
                for (int from = 0; from < partitions.size(); from += FetchRequest.MAX_ENTRIES) {
                    List<FetchEntry> heads = new ArrayList<>();
                    for (String p : partitions.subList(from, Math.min(partitions.size(), from + FetchRequest.MAX_ENTRIES))) {
                        heads.add(FetchEntry.of(queue, p, 0, 1));
                    }
                    List<FetchedPartition> answer = client.fetch(FetchRequest.immediate(heads));
                    List<FetchEntry> tails = new ArrayList<>();
                    for (FetchedPartition fp : answer) {
                        count += fp.highWatermark();
                        if (!fp.records().isEmpty()) {
                            first = Math.min(first, fp.records().get(0).tsMicros());
                        }
                        if (fp.highWatermark() > 0) {
                            tails.add(FetchEntry.of(queue, fp.partition(), fp.highWatermark() - 1, 1));
                        }
                    }
                    if (!tails.isEmpty()) {
                        for (FetchedPartition fp : client.fetch(FetchRequest.immediate(tails))) {
                            last = Math.max(last, fp.records().get(0).tsMicros());
                        }
                    }
                }
                counts.put(queue, count);
                stamps.put(queue, last);
                firsts.put(queue, first == Long.MAX_VALUE ? 0 : first);
            }
            return new Census(counts, stamps, firsts);
        }
    }
}
