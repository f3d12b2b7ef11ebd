package io.queenlake.source.it;

import static org.assertj.core.api.Assertions.fail;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.source.QueenSource;
import io.queenlake.source.QueenSourceBuilder;
import io.queenlake.source.QueenSourceConfig;
import io.queenlake.source.QueueEvent;
import io.queenlake.source.QueueRecord;
import io.queenlake.source.StartMode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.util.Collector;

/**
 * A dev broker whose clock a test can move forward, a client to push with, and QueenSource with
 * the short test settings (discovery 100 ms, guard 20 ms, lease TTL 1.5 s). Records leave the job
 * as one line each ({@link Seen}), so what a test collects needs no serializer of its own.
 */
final class SourceItRig implements AutoCloseable {

    static final String TENANT = QueenSourceConfig.DEFAULT_TENANT;
    static final long DISCOVERY_MS = 100;
    static final long GUARD_MS = 20;
    static final long LEASE_TTL_MS = 1_500;

    final DevBroker broker;
    final AtomicLong skewMicros = new AtomicLong();
    final QueenClient client;

    SourceItRig() throws Exception {
        broker = DevBroker.start(DevBrokerOptions.builder().clock(() -> wallMicros() + skewMicros.get()).build());
        client = HttpQueenClient.builder().baseUrl(broker.url().toString()).build();
    }

    static long wallMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    QueenSourceBuilder source(String... queues) {
        return QueenSource.builder()
                .brokerUrl(broker.url().toString())
                .queues(queues)
                .sink("it")
                .instance("it-" + UUID.randomUUID())
                .start(StartMode.EARLIEST)
                .safeGuardMs(GUARD_MS)
                .discoveryIntervalMs(DISCOVERY_MS)
                .leaseTtlMs(LEASE_TTL_MS)
                .maxWindowMs(60_000)
                .requestTimeoutMs(5_000);
    }

    /** One push call; the payload of item i is {@code payloads.get(i)}. */
    void push(List<PushItem> items) {
        client.push(items);
    }

    static PushItem item(String queue, String partition, String payload) {
        return PushItem.of(queue, partition, UUID.randomUUID().toString(), payload);
    }

    /**
     * One emitted record as a line: queue, partition, incarnation, offset, stamp, Flink timestamp,
     * payload bytes and lost ranges, each field Base64 where it is free text.
     */
    record Seen(String queue, String partition, String partitionId, long offset, long tsMicros, String payload,
            String lost) {

        /** The lines of the records among a job's queue events (starts and frontiers leave none). */
        static void lines(QueueEvent event, Collector<String> out) {
            if (event instanceof QueueRecord r) {
                out.collect(line(r));
            }
        }

        static String line(QueueRecord r) {
            Base64.Encoder b64 = Base64.getEncoder();
            StringBuilder lost = new StringBuilder();
            r.lostBefore().forEach(l -> lost.append(l.from()).append('-').append(l.to()).append(';'));
            return String.join("|",
                    b64.encodeToString(r.queue().getBytes(StandardCharsets.UTF_8)),
                    b64.encodeToString(r.record().partition().getBytes(StandardCharsets.UTF_8)),
                    r.record().partitionId(),
                    Long.toString(r.record().offset()),
                    Long.toString(r.record().tsMicros()),
                    b64.encodeToString(r.record().payload()),
                    lost.toString());
        }

        static Seen parse(String line) {
            String[] f = line.split("\\|", -1);
            Base64.Decoder b64 = Base64.getDecoder();
            return new Seen(new String(b64.decode(f[0]), StandardCharsets.UTF_8),
                    new String(b64.decode(f[1]), StandardCharsets.UTF_8), f[2], Long.parseLong(f[3]),
                    Long.parseLong(f[4]), new String(b64.decode(f[5]), StandardCharsets.UTF_8), f[6]);
        }

        String key() {
            return queue + "\u0000" + partition;
        }
    }

    /** Waits for a condition, failing with {@code what} and the state when it does not come. */
    static void await(String what, java.util.function.BooleanSupplier done, Duration timeout, java.util.function.Supplier<String> state)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("expected " + what + " within " + timeout + ": " + state.get());
            }
            Thread.sleep(20);
        }
    }

    static List<Seen> parseAll(List<String> lines) {
        List<Seen> seen = new ArrayList<>();
        for (String line : lines) {
            seen.add(Seen.parse(line));
        }
        return seen;
    }

    @Override
    public void close() {
        broker.close();
    }
}
