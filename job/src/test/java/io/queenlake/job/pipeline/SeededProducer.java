package io.queenlake.job.pipeline;

import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.PushResult;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.RawJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;

/**
 * A producer of a seeded corpus: each round is one push call with zero to three records for every
 * partition of every queue. Payloads vary the way producers' JSON does (decimals that must stay
 * {@code 42.00}, big integers, escapes, non-ASCII, raw line breaks as whitespace, nested values,
 * {@code null}), padded to a seeded length. It counts what the broker queued, so a test can check
 * the log it reads back is the whole of it.
 */
final class SeededProducer {

    private final QueenClient client;
    private final List<String> queues;
    private final List<String> partitions;
    private final Random random;
    private final int maxPerPartition;
    private final int maxPadding;
    private long queued;
    private int round;

    SeededProducer(QueenClient client, long seed, List<String> queues, List<String> partitions) {
        this(client, seed, queues, partitions, 3, 200);
    }

    SeededProducer(QueenClient client, long seed, List<String> queues, List<String> partitions, int maxPerPartition,
            int maxPadding) {
        this.client = client;
        this.queues = List.copyOf(queues);
        this.partitions = List.copyOf(partitions);
        this.random = new Random(seed);
        this.maxPerPartition = maxPerPartition;
        this.maxPadding = maxPadding;
    }

    List<String> queues() {
        return queues;
    }

    List<String> partitions() {
        return partitions;
    }

    /** Records the broker queued so far. */
    long queued() {
        return queued;
    }

    /** One push call: 0..max records for every queue x partition, each with a fresh transaction id. */
    void pushRound() {
        List<PushItem> items = new ArrayList<>();
        for (String queue : queues) {
            for (String partition : partitions) {
                int n = random.nextInt(maxPerPartition + 1);
                for (int i = 0; i < n; i++) {
                    String tx = new UUID(random.nextLong(), random.nextLong()).toString();
                    items.add(new PushItem(queue, partition, Optional.of(tx), payload(partition, i)));
                }
            }
        }
        round++;
        if (items.isEmpty()) {
            return;
        }
        for (PushResult r : client.push(items)) {
            if (r.status() != PushResult.PushStatus.QUEUED) {
                throw new IllegalStateException("the broker did not queue item " + r.index() + " of round " + round
                        + " (" + r.status() + "): transaction ids of a seeded corpus must be fresh");
            }
            queued++;
        }
    }

    /** {@code rounds} rounds, {@code pauseMs} apart, as producers push while a job runs. */
    void pushRounds(int rounds, long pauseMs) throws InterruptedException {
        for (int i = 0; i < rounds; i++) {
            pushRound();
            if (pauseMs > 0 && i < rounds - 1) {
                Thread.sleep(pauseMs); // the producers' own pacing, so the corpus spans several windows
            }
        }
    }

    /** {@code rounds} rounds with the broker's clock moved {@code stepMs} between them: a log of many windows at once. */
    void pushRoundsOnClock(PipelineRig rig, int rounds, long stepMs) {
        for (int i = 0; i < rounds; i++) {
            pushRound();
            rig.advanceClock(stepMs);
        }
    }

    private RawJson payload(String partition, int i) {
        int kind = random.nextInt(8);
        String pad = "x".repeat(random.nextInt(maxPadding + 1));
        String json = switch (kind) {
            case 0 -> "null";
            case 1 -> "{\"round\":" + round + ",\"total\":42.00,\"pad\":\"" + pad + "\"}";
            case 2 -> "{\"big\":123456789012345678901234567890,\"neg\":-0.0e-7,\"i\":" + i + ",\"pad\":\"" + pad + "\"}";
            case 3 -> "{\"quote\":\"he said \\\"caff\u00e8\\\" \\u00e9 \\\\ /\",\"emoji\":\"\ud83d\ude00\",\"pad\":\"" + pad + "\"}";
            case 4 -> "{\"lines\":\n  [1,\r\n 2],\n\"pad\":\"" + pad + "\"}";
            case 5 -> "[\"" + partition.replace("\\", "\\\\").replace("\"", "\\\"") + "\",{\"nested\":{\"deep\":[true,false,null]}},\""
                    + pad + "\"]";
            case 6 -> "\"a bare string " + pad + "\"";
            default -> "{\"z\":1,\"a\":2,\"order\":" + round + ",\"pad\":\"" + pad + "\"}";
        };
        return kind == 0 ? RawJson.NULL : RawJson.of(json);
    }
}
