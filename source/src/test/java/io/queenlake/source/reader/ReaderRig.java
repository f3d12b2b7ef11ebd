package io.queenlake.source.reader;

import static org.assertj.core.api.Assertions.fail;

import io.queenlake.broker.client.ChangedPass;
import io.queenlake.broker.client.ChangedPassWalker;
import io.queenlake.broker.client.ChangedQuery;
import io.queenlake.broker.client.FetchEntry;
import io.queenlake.broker.client.FetchRequest;
import io.queenlake.broker.client.FetchedPartition;
import io.queenlake.broker.client.FetchedRecord;
import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.PartitionInfo;
import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.source.QueenSourceConfig;
import io.queenlake.source.StartMode;
import io.queenlake.source.event.PassCompleted;
import io.queenlake.source.event.PassUpdate;
import io.queenlake.source.metrics.QueenSourceMetrics;
import io.queenlake.source.split.PartitionSplit;
import io.queenlake.source.split.QueueSplit;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.testutils.source.reader.TestingReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.testutils.MetricListener;
import org.apache.flink.runtime.metrics.groups.InternalSourceReaderMetricGroup;

/**
 * One QueenSource reader against an in-process dev broker whose clock the test can move forward,
 * driven by hand from the test thread as Flink's task thread would drive it. The test plays the
 * enumerator: it assigns splits and sends passes.
 */
final class ReaderRig implements AutoCloseable {

    static final String TENANT = QueenSourceConfig.DEFAULT_TENANT;

    final DevBroker broker;
    final AtomicLong skewMicros;
    final QueenClient client;
    final CountingQueenClient readerClient;
    final MetricListener metrics = new MetricListener();
    final TestingReaderContext context =
            new TestingReaderContext(new Configuration(), InternalSourceReaderMetricGroup.mock(metrics.getMetricGroup()));
    final RecordingReaderOutput output = new RecordingReaderOutput();
    final QueenSourceReader reader;

    private ReaderRig(DevBroker broker, AtomicLong skewMicros, long safeGuardMs, long maxWindowMs) {
        this.broker = broker;
        this.skewMicros = skewMicros;
        this.client = HttpQueenClient.builder().baseUrl(broker.url().toString()).build();
        this.readerClient = new CountingQueenClient(HttpQueenClient.builder().baseUrl(broker.url().toString()).build());
        this.reader = QueenSourceReader.create(readerClient, config(broker.url().toString(), safeGuardMs, maxWindowMs), context);
        reader.start();
    }

    static ReaderRig start(long safeGuardMs, long maxWindowMs) throws Exception {
        AtomicLong skew = new AtomicLong();
        DevBroker broker = DevBroker.start(DevBrokerOptions.builder().clock(() -> wallMicros() + skew.get()).build());
        return new ReaderRig(broker, skew, safeGuardMs, maxWindowMs);
    }

    static QueenSourceConfig config(String url, long safeGuardMs, long maxWindowMs) {
        return new QueenSourceConfig(url, null, TENANT, List.of("*"), "test", "reader-test", StartMode.EARLIEST,
                safeGuardMs, 100, 2, 3_000, maxWindowMs, null, 5_000, null);
    }

    static long wallMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    /** One push: every payload gets the same stamp. */
    void push(String queue, String partition, String... payloads) {
        List<PushItem> items = new ArrayList<>();
        for (String payload : payloads) {
            items.add(PushItem.of(queue, partition, UUID.randomUUID().toString(), payload));
        }
        client.push(items);
    }

    /** The partition's whole stored log, read directly from the broker. */
    List<FetchedRecord> log(String queue, String partition) {
        List<FetchedRecord> log = new ArrayList<>();
        long offset = answer(queue, partition, 0).logStartOffset();
        while (true) {
            FetchedPartition answer = answer(queue, partition, offset);
            if (answer.records().isEmpty()) {
                return log;
            }
            log.addAll(answer.records());
            offset = answer.records().get(answer.records().size() - 1).offset() + 1;
        }
    }

    FetchedPartition answer(String queue, String partition, long offset) {
        return client.fetch(FetchRequest.immediate(List.of(FetchEntry.withDefaultBudget(queue, partition, offset)))).get(0);
    }

    long safeTime() {
        return client.partitionsChanged(List.of()).safeTimeMicros();
    }

    /** One queue split of these partitions (all of one queue), with no cut. */
    static QueueSplit split(PartitionSplit... partitions) {
        return new QueueSplit(partitions[0].queue(), List.of(partitions), Optional.empty());
    }

    /**
     * What a complete pass now reports for these queues, as discovery reads them: every current
     * partition of each, paged, with the minimum safeTime of the pages (read before their rows). A
     * partition a split does not hold starts at its log start.
     */
    PassCompleted passNow(String... queues) {
        if (queues.length == 0) {
            return new PassCompleted(safeTime(), Map.of());
        }
        ChangedPass pass = ChangedPassWalker.walk(client, List.of(queues), OptionalLong.empty(), ChangedQuery.MAX_LIMIT);
        Map<String, List<PassCompleted.PassPartition>> rows = new HashMap<>();
        for (String queue : queues) {
            List<PassCompleted.PassPartition> list = new ArrayList<>();
            for (PartitionInfo p : pass.partitions().getOrDefault(queue, List.of())) {
                list.add(new PassCompleted.PassPartition(
                        p.name(), p.id(), p.lastOffset(), Math.max(0, p.logStart()), Long.MIN_VALUE, "", -1));
            }
            rows.put(queue, list);
        }
        return new PassCompleted(pass.safeTimeMicros(), rows);
    }

    /** The pass discovery would send now for the queues of these splits. */
    PassCompleted passNow(QueueSplit... splits) {
        return passNow(queuesOf(splits));
    }

    private static String[] queuesOf(QueueSplit... splits) {
        List<String> queues = new ArrayList<>();
        for (QueueSplit split : splits) {
            if (!queues.contains(split.queue())) {
                queues.add(split.queue());
            }
        }
        return queues.toArray(String[]::new);
    }

    /** A pass row for a partition the split holds (or is to join at its offset), with the last offset a pass claims. */
    static PassCompleted.PassPartition row(PartitionSplit partition, long lastOffset) {
        return new PassCompleted.PassPartition(partition.partition(), partition.partitionId(), lastOffset,
                Math.max(0, partition.nextOffset()), partition.skipBelowMicros(), "", -1);
    }

    /** A pass with exactly these rows, grouped by the rows' partitions' queues. */
    static PassCompleted pass(long safeTimeMicros, Map<PartitionSplit, Long> lastOffsets) {
        Map<String, List<PassCompleted.PassPartition>> rows = new HashMap<>();
        lastOffsets.forEach((p, last) -> rows.computeIfAbsent(p.queue(), q -> new ArrayList<>()).add(row(p, last)));
        return new PassCompleted(safeTimeMicros, rows);
    }

    /** Partition name to incarnation id, as a full discovery pass reports them. */
    Map<String, String> ids(String queue) {
        Map<String, String> ids = new HashMap<>();
        ChangedPassWalker.walk(client, List.of(queue), OptionalLong.empty(), ChangedQuery.MAX_LIMIT)
                .partitions().getOrDefault(queue, List.of()).forEach(p -> ids.put(p.name(), p.id()));
        return ids;
    }

    /** What the enumerator does with a new queue split: assign it, then send the pass that lists its queue. */
    void assign(QueueSplit... splits) {
        reader.addSplits(List.of(splits));
        send(passNow(splits));
    }

    /** Sends {@code event}; a pass goes as the enumerator sends one, a whole listing in a {@link PassUpdate}. */
    void send(Object event) {
        reader.handleSourceEvents(event instanceof PassCompleted pass
                ? asUpdate(pass)
                : (org.apache.flink.api.connector.source.SourceEvent) event);
    }

    private static final java.util.concurrent.atomic.AtomicLong UPDATES = new java.util.concurrent.atomic.AtomicLong();

    /** {@code pass} as a whole listing on the wire. */
    static PassUpdate asUpdate(PassCompleted pass) {
        return PassUpdate.full(UPDATES.incrementAndGet(), pass.safeTimeMicros(), pass.queues());
    }

    void pollUntil(String what, BooleanSupplier done, Duration timeout) throws Exception {
        pollUntil(what, done, timeout, 0);
    }

    /**
     * Like {@link #pollUntil}, as a downstream that takes about a millisecond per record would poll,
     * so the reader's fetcher can run ahead of what is emitted as far as it lets itself.
     */
    void pollSlowlyUntil(String what, BooleanSupplier done, Duration timeout) throws Exception {
        pollUntil(what, done, timeout, 1_000_000L);
    }

    private void pollUntil(String what, BooleanSupplier done, Duration timeout, long pauseNanos) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("expected " + what + " within " + timeout + "; emitted " + output.records.size()
                        + " records, watermarks " + output.watermarks);
            }
            pollOnce();
            if (pauseNanos > 0) {
                LockSupport.parkNanos(pauseNanos);
            }
        }
    }

    /** Polls for a while, whatever comes. */
    void pollFor(Duration duration) throws Exception {
        long deadline = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < deadline) {
            pollOnce();
        }
    }

    private void pollOnce() throws Exception {
        InputStatus status = reader.pollNext(output);
        if (status == InputStatus.NOTHING_AVAILABLE) {
            try {
                reader.isAvailable().get(20, TimeUnit.MILLISECONDS);
            } catch (TimeoutException quiet) {
                // nothing yet; poll again
            }
        }
    }

    List<Long> offsetsOf(String queue, String partition) {
        List<Long> offsets = new ArrayList<>();
        for (RecordingReaderOutput.Stamped s : output.records) {
            if (s.record().queue().equals(queue) && s.record().record().partition().equals(partition)) {
                offsets.add(s.record().record().offset());
            }
        }
        return offsets;
    }

    /** A counter of the reader's metric group, by the path below {@link QueenSourceMetrics#GROUP}. */
    long counter(String... path) {
        String[] full = new String[path.length + 1];
        full[0] = QueenSourceMetrics.GROUP;
        System.arraycopy(path, 0, full, 1, path.length);
        return metrics.getCounter(full).map(Counter::getCount)
                .orElseThrow(() -> new AssertionError("no counter " + String.join(".", full)));
    }

    /** A gauge of the reader's metric group, by its name below {@link QueenSourceMetrics#GROUP}. */
    Object gauge(String name) {
        return metrics.getGauge(QueenSourceMetrics.GROUP, name).map(g -> g.getValue())
                .orElseThrow(() -> new AssertionError("no gauge " + QueenSourceMetrics.GROUP + "." + name));
    }

    @Override
    public void close() throws Exception {
        try {
            reader.close();
        } finally {
            broker.close();
        }
    }

    static Duration seconds(long s) {
        return Duration.ofSeconds(s);
    }
}
