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
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code ./queen-lake push}: a producer. Generated orders ({@code --count}, spread over
 * {@code --partitions}), or one JSON value per stdin line with {@code --stdin}. Every record gets
 * a transaction id, so a retried batch is deduplicated by the broker instead of doubled.
 */
final class PushCommand implements Subcommand {

    private static final int BATCH = 500;

    private static final List<CliOption> OPTIONS = Stream.concat(Stream.of(
            CliOption.required("queue", "Q", "the queue to push to"),
            CliOption.option("partition", "P", "push every record to partition P (with --stdin: else Default)"),
            CliOption.option("partitions", "N", "spread the generated orders over the partitions p-0 .. p-N-1").byDefault(1),
            CliOption.option("count", "N", "how many orders to generate").byDefault(1000),
            CliOption.option("payload-bytes", "B", "about how large each generated order is").byDefault(300),
            CliOption.flag("stdin", "push one JSON value per line of stdin instead of generated orders"),
            CliOption.option("run-id", "ID", "the transaction ids' prefix, else the time now: a push repeated with"
                    + " the same ID is deduplicated by the broker")),
            BrokerConnection.OPTIONS.stream()).toList();

    private static final Help HELP = new Help(
            "push generated orders, or one JSON value per stdin line, into a queue (each with a transaction id)", OPTIONS);

    @Override
    public Help help() {
        return HELP;
    }

    @Override
    public int run(String[] args) throws Exception {
        CommandArgs a = CommandArgs.parse("push", args, OPTIONS);
        String queue = a.required("queue");
        if (a.given("partition") && a.given("partitions")) {
            throw new UsageException("push: give --partition P (one partition) or --partitions N (spread), not both");
        }
        QueenClient queen = BrokerConnection.from(a, System.getenv()).client("push");
        String runId = a.get("run-id", Long.toString(System.currentTimeMillis(), 36));
        Producer producer = new Producer(queen, queue, runId);
        if (a.flag("stdin")) {
            producer.pushLines(a.get("partition", "Default"));
        } else {
            long count = a.longValue("count", 1, Long.MAX_VALUE);
            int payloadBytes = a.intValue("payload-bytes", 16, 8 * 1024 * 1024);
            String fixed = a.get("partition");
            int partitions = fixed != null ? 1 : a.intValue("partitions", 1, 1_000_000);
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
