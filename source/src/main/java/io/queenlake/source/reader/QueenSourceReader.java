package io.queenlake.source.reader;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.source.QueenSourceConfig;
import io.queenlake.source.QueueRecord;
import io.queenlake.source.event.PartitionReplaced;
import io.queenlake.source.event.PassCompleted;
import io.queenlake.source.metrics.QueenSourceMetrics;
import io.queenlake.source.split.PartitionSplit;
import io.queenlake.source.split.PartitionSplitState;
import io.queenlake.source.watermark.Frontier;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;
import org.apache.flink.core.io.InputStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * QueenSource's reader: one fetcher thread running a {@link QueenSplitReader}, a
 * {@link QueenRecordEmitter}, and the broker-time watermark, emitted on the main output from the
 * frontier ({@link ReaderWatermarks}) after records, passes and split changes. Discovery news
 * ({@link PassCompleted}) reaches the fetcher through a {@link PassExchange}.
 *
 * <p>The watermark strategy generates nothing ({@code ReaderEmittedWatermarks}), so the main
 * output's {@code emitWatermark} is the only watermark this source sends downstream.
 */
public final class QueenSourceReader
        extends SingleThreadMultiplexSourceReaderBase<ReadItem, QueueRecord, PartitionSplit, PartitionSplitState> {

    private static final Logger LOG = LoggerFactory.getLogger(QueenSourceReader.class);

    private final ReaderWatermarks watermarks;
    private final PassExchange exchange;
    private final QueenRecordEmitter emitter;
    /** Completed when the frontier moved while the reader had nothing to poll, so the watermark goes out. */
    private CompletableFuture<Void> frontierMoved = new CompletableFuture<>();

    private QueenSourceReader(QueenClient client, QueenSourceConfig config, SourceReaderContext context,
            QueenSourceMetrics metrics, PassExchange exchange, ReaderWatermarks watermarks, QueenRecordEmitter emitter) {
        super(() -> new QueenSplitReader(client, config.fetchConcurrency(), exchange, metrics, config.maxWindowMs()),
                emitter, context.getConfiguration(), context);
        this.watermarks = watermarks;
        this.exchange = exchange;
        this.emitter = emitter;
    }

    /** Builds a reader over its own HTTP client to the configured broker node. */
    public static QueenSourceReader create(QueenSourceConfig config, SourceReaderContext context) {
        QueenClient client = HttpQueenClient.builder()
                .baseUrl(config.brokerUrl())
                .token(config.token())
                .tenant(config.tenant())
                .requestTimeout(Duration.ofMillis(config.requestTimeoutMs()))
                .build();
        return create(client, config, context);
    }

    /** Builds a reader over a given client (tests count its calls). */
    static QueenSourceReader create(QueenClient client, QueenSourceConfig config, SourceReaderContext context) {
        QueenSourceMetrics metrics = new QueenSourceMetrics(context.metricGroup());
        PassExchange exchange = new PassExchange();
        ReaderWatermarks watermarks = new ReaderWatermarks(new Frontier(config.safeGuardMicros()), exchange, metrics);
        return new QueenSourceReader(client, config, context, metrics, exchange, watermarks,
                new QueenRecordEmitter(watermarks, metrics));
    }

    @Override
    public InputStatus pollNext(ReaderOutput<QueueRecord> output) throws Exception {
        InputStatus status = super.pollNext(output);
        OptionalLong watermark = watermarks.advance(status == InputStatus.MORE_AVAILABLE);
        if (watermark.isPresent()) {
            output.emitWatermark(new Watermark(watermark.getAsLong()));
        }
        return status;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        if (watermarks.pending()) {
            return CompletableFuture.completedFuture(null);
        }
        if (frontierMoved.isDone()) {
            frontierMoved = new CompletableFuture<>();
        }
        return CompletableFuture.anyOf(super.isAvailable(), frontierMoved).thenApply(ignored -> null);
    }

    @Override
    public void handleSourceEvents(SourceEvent event) {
        if (event instanceof PassCompleted pass) {
            watermarks.onPass(pass);
            exchange.publishPass(pass);
            frontierMoved.complete(null);
        } else if (event instanceof PartitionReplaced replaced) {
            // Sent before the new split: the fetcher retires the old one when it next looks.
            exchange.publishReplaced(replaced.oldSplitId(), replaced.lastOffset());
        } else {
            LOG.warn("QueenSource reader ignores an unknown source event {}", event);
        }
    }

    @Override
    protected PartitionSplitState initializedState(PartitionSplit split) {
        watermarks.addSplit(split.splitId(), split.nextOffset());
        return new PartitionSplitState(split);
    }

    @Override
    protected PartitionSplit toSplitType(String splitId, PartitionSplitState state) {
        return state.toSplit();
    }

    @Override
    protected void onSplitFinished(Map<String, PartitionSplitState> finished) {
        for (Map.Entry<String, PartitionSplitState> e : finished.entrySet()) {
            watermarks.removeSplit(e.getKey());
            emitter.forget(e.getValue().split());
        }
        frontierMoved.complete(null);
    }
}
