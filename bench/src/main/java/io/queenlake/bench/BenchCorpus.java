package io.queenlake.bench;

import io.queenlake.format.model.LogRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The one corpus every format measurement encodes: seeded, so every run and every encoder sees the
 * same records, in lake order (ASCII partition names, so UTF-8 order is name order). Payloads are
 * order-like JSON objects of about 300 bytes, with a short free-text field so they do not compress
 * unrealistically well.
 */
final class BenchCorpus {
    private static final long BASE_TS = 1_791_007_200_000_000L;

    private BenchCorpus() {}

    /**
     * {@code parsed} marks every payload as already parsed as JSON ({@link LogRecord#payloadParsed}),
     * as QueenSource's records are; the caller must make that true. Both kinds are built the same
     * way, so their objects lie in memory alike and the encoder's timings compare.
     */
    static List<LogRecord> generate(long seed, int records, int partitions, boolean parsed) {
        Random random = new Random(seed);
        List<LogRecord> corpus = new ArrayList<>(records);
        int perPartition = records / partitions;
        for (int p = 0; p < partitions; p++) {
            String partition = String.format("customer-%05d", p * 37 % 100_000);
            int count = p < partitions - 1 ? perPartition : records - perPartition * (partitions - 1);
            long ts = BASE_TS + random.nextInt(1_000_000);
            for (int offset = 0; offset < count; offset++) {
                ts += 1 + random.nextInt(20_000);
                corpus.add(new LogRecord(partition, "pid-" + p, offset, transactionId(random), ts, payload(random), parsed));
            }
        }
        corpus.sort((a, b) -> a.partition().compareTo(b.partition()) != 0
                ? a.partition().compareTo(b.partition())
                : Long.compare(a.offset(), b.offset()));
        return corpus;
    }

    private static String transactionId(Random random) {
        return Long.toHexString(random.nextLong() | Long.MIN_VALUE) + Long.toHexString(random.nextLong() | Long.MIN_VALUE);
    }

    private static byte[] payload(Random random) {
        return OrderPayloads.order(random).getBytes(StandardCharsets.UTF_8);
    }
}
