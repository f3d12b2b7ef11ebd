package io.queenlake.job.cli;

import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.PushResult;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.RawJson;
import io.queenlake.broker.client.RetryPolicy;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code ./queen-lake push}: a producer. Generated orders ({@code --count}, spread over
 * {@code --partitions}), or one JSON value per stdin line with {@code --stdin}. Every record gets
 * a transaction id, so a retried batch is deduplicated by the broker instead of doubled.
 */
final class PushCommand implements Subcommand {

    private static final int BATCH = 500;

    @Override
    public String summary() {
        return "push records: --queue Q [--queen-url http://localhost:6632] [--queen-token T] [--queen-tenant UUID]"
                + " [--partition P | --partitions N] [--count N] [--payload-bytes B] [--stdin]";
    }

    @Override
    public int run(String[] args) throws Exception {
        Set<String> options = new HashSet<>(BrokerConnection.OPTIONS);
        options.addAll(Set.of("queue", "partition", "partitions", "count", "payload-bytes", "stdin", "run-id"));
        CommandArgs a = CommandArgs.parse("push", args, options, Set.of("stdin"));
        String queue = a.required("queue");
        if (a.get("partition", null) != null && a.get("partitions", null) != null) {
            throw new UsageException("push: give --partition P (one partition) or --partitions N (spread), not both");
        }
        QueenClient queen = BrokerConnection.from(a, System.getenv()).client("push");
        String runId = a.get("run-id", Long.toString(System.currentTimeMillis(), 36));
        Producer producer = new Producer(queen, queue, runId);
        if (a.flag("stdin")) {
            producer.pushLines(a.get("partition", "Default"));
        } else {
            long count = a.longValue("count", 1000, 1, Long.MAX_VALUE);
            int payloadBytes = a.intValue("payload-bytes", 300, 16, 8 * 1024 * 1024);
            String fixed = a.get("partition", null);
            int partitions = fixed != null ? 1 : a.intValue("partitions", 1, 1, 1_000_000);
            producer.pushGenerated(count, payloadBytes, fixed, partitions);
        }
        producer.printProgress(true);
        return 0;
    }

    /** Batches items, pushes them with retries, and keeps the progress line. */
    private static final class Producer {
        private final QueenClient queen;
        private final String queue;
        private final String runId;
        private final RetryPolicy retry = RetryPolicy.standard();
        private final List<PushItem> batch = new ArrayList<>(BATCH);
        private long queued;
        private long duplicates;
        private long seq;
        private final long started = System.nanoTime();
        private long lastPrint;

        Producer(QueenClient queen, String queue, String runId) {
            this.queen = queen;
            this.queue = queue;
            this.runId = runId;
        }

        void pushGenerated(long count, int payloadBytes, String fixedPartition, int partitions) {
            OrderPayloads payloads = new OrderPayloads(payloadBytes);
            for (long i = 0; i < count; i++) {
                String partition = fixedPartition != null ? fixedPartition : "p-" + (i % partitions);
                add(partition, RawJson.of(payloads.order(i)));
            }
            flush();
        }

        void pushLines(String partition) throws Exception {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (!line.isBlank()) {
                        add(partition, RawJson.of(line));
                    }
                }
            }
            flush();
        }

        private void add(String partition, RawJson payload) {
            batch.add(new PushItem(queue, partition, Optional.of(runId + "-" + seq++), payload));
            if (batch.size() == BATCH) {
                flush();
            }
        }

        private void flush() {
            if (batch.isEmpty()) {
                return;
            }
            List<PushResult> results = retry.call(() -> queen.push(batch));
            for (PushResult r : results) {
                if (r.status() == PushResult.PushStatus.DUPLICATE) {
                    duplicates++;
                } else {
                    queued++;
                }
            }
            batch.clear();
            printProgress(false);
        }

        void printProgress(boolean last) {
            long now = System.nanoTime();
            if (!last && now - lastPrint < 1_000_000_000L) {
                return;
            }
            lastPrint = now;
            double seconds = Math.max((now - started) / 1e9, 1e-3);
            String line = String.format("pushed %d records to queue '%s' (%d duplicates) in %.1f s, %.0f records/s",
                    queued, queue, duplicates, seconds, queued / seconds);
            System.out.print("\r" + line + (last ? System.lineSeparator() : ""));
            System.out.flush();
        }
    }
}
