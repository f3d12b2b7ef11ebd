package io.queenlake.source.enumerator;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.KvAnswer;
import io.queenlake.broker.client.KvExpiry;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.KvResult;
import io.queenlake.broker.client.KvRow;
import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.PushResult;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.RawJson;
import io.queenlake.broker.kv.SinkKeys;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.source.QueenSource;
import io.queenlake.source.QueenSourceConfig;
import io.queenlake.source.StartMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A dev broker whose clock the test can move forward (wall time plus a skew), a client to push
 * and to read KV, and enumerators built from a real config on a recording context.
 */
final class EnumeratorRig implements AutoCloseable {

    static final String TENANT = QueenSourceConfig.DEFAULT_TENANT;

    final DevBroker broker;
    final AtomicLong skewMicros = new AtomicLong();
    final QueenClient client;
    private final List<AutoCloseable> closing = new ArrayList<>();

    EnumeratorRig() throws Exception {
        this.broker = DevBroker.start(DevBrokerOptions.builder().clock(() -> wallMicros() + skewMicros.get()).build());
        this.client = HttpQueenClient.builder().baseUrl(broker.url().toString()).build();
    }

    static long wallMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    /** Moves the broker's clock forward. */
    void advance(long micros) {
        skewMicros.addAndGet(micros);
    }

    QueenSourceConfig config(Consumer<io.queenlake.source.QueenSourceBuilder> settings) {
        io.queenlake.source.QueenSourceBuilder b = QueenSource.builder()
                .brokerUrl(broker.url().toString())
                .queues("orders")
                .sink("test")
                .instance("node-a")
                .start(StartMode.EARLIEST)
                .safeGuardMs(0)
                .discoveryIntervalMs(100)
                .leaseTtlMs(1_000)
                .requestTimeoutMs(5_000);
        settings.accept(b);
        return b.build().config();
    }

    RecordingContext context(int parallelism) {
        RecordingContext context = new RecordingContext(parallelism);
        closing.add(context);
        return context;
    }

    /** An enumerator on a context, started: periodic callable 0 is its lease round, 1 its discovery run. */
    QueenSplitEnumerator start(QueenSourceConfig config, RecordingContext context, QueenEnumState state) {
        return start(config, context, state, client);
    }

    QueenSplitEnumerator start(QueenSourceConfig config, RecordingContext context, QueenEnumState state, QueenClient via) {
        QueenSplitEnumerator enumerator = new QueenSplitEnumerator(config, context, state, via);
        enumerator.start();
        closing.add(enumerator::close);
        return enumerator;
    }

    /** Pushes {@code count} records to one partition; returns their offsets. */
    List<Long> push(String queue, String partition, int count) {
        List<PushItem> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            items.add(new PushItem(queue, partition, Optional.empty(), RawJson.of("{\"n\":" + i + "}")));
        }
        List<Long> offsets = new ArrayList<>();
        for (PushResult r : client.push(items)) {
            offsets.add(r.offset());
        }
        return offsets;
    }

    void putForever(String key, byte[] json) {
        client.kv(List.of(KvOp.upsert(SinkKeys.NAMESPACE, key, RawJson.ofUtf8(json), KvExpiry.forever())));
    }

    Optional<KvRow> get(String key) {
        KvAnswer.Results results = (KvAnswer.Results) client.kv(List.of(KvOp.get(SinkKeys.NAMESPACE, key)));
        return ((KvResult.Got) results.get(0)).row();
    }

    @Override
    public void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            try {
                closing.get(i).close();
            } catch (Exception ignored) {
                // best effort: the broker goes away next
            }
        }
        broker.close();
    }
}
