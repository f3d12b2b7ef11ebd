package io.queenlake.connector.window;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.RetryPolicy;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.object.Format;
import io.queenlake.connector.restore.PointerRestore;
import io.queenlake.source.OpenWindows;
import io.queenlake.source.QueueEvent;
import io.queenlake.source.QueueFrontier;
import io.queenlake.source.QueueRecord;
import io.queenlake.source.QueueStart;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker-clock windows, chained to the source in its task (docs/ARCHITECTURE.md "Windows",
 * "Restore"): per queue ({@link QueueWindows}) it buffers each record in its epoch-aligned grid
 * cell, and closes a queue's cells, size-cut and numbered, when that queue's own frontier
 * ({@link QueueFrontier}) reaches their last microsecond. It never encodes, writes or commits:
 * the sink does. It keeps each record as the bytes the lake's format makes of it, made as the
 * record arrives ({@link OpenRuns}), so the sink's encoding of a closed window only concatenates.
 *
 * <p>It holds no Flink state at all. Open windows live in memory; at a checkpoint the source reader
 * asks them ({@link OpenWindows}, registered for the task's thread) for each queue's cut, and a
 * restore reads the open records again from the broker. Hence:
 *
 * <ul>
 *   <li>{@link QueueStart} starts a queue from its split's cut, or from the commit pointer when the
 *       cut is empty or the pointer is ahead of it ({@link StartPoint}); an open intent naming the
 *       next window is finished first (its records, exactly {@code [intent.tStart, intent.tEnd)},
 *       close into window {@code intent.k}, never size-cut, with the intent's format). A queue
 *       started again (not reached with Flink's failover today: a failed reader's splits come back
 *       to a new reader) drops its open windows and starts from the new cut the same way;
 *   <li>a record at or below its queue's frontier fails the job ({@link LateRecordException});
 *       one below the pointer's {@code tEnd} is dropped;
 *   <li>Flink watermarks are forwarded and close nothing, {@code Long.MAX_VALUE} (a drain)
 *       included: open windows stay open and are read again after a restart;
 *   <li>over the memory budget ({@code queen.s3.memory-mb}, per task manager: {@link OpenWindowBudget})
 *       the queue holding the most (of those with records at or below their frontier) closes its
 *       oldest open window early at its frontier, and the reader pauses partitions ahead of their
 *       queue's frontier ({@link #overBudget()}).
 * </ul>
 */
@PublicEvolving
public final class LakeWindowOperator extends AbstractStreamOperator<ClosedWindow>
        implements OneInputStreamOperator<QueueEvent, ClosedWindow>, OpenWindows {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(LakeWindowOperator.class);

    private final WindowSettings settings;
    /** The lake's format, as its name and codec (a {@link Format} is not serializable). */
    private final String formatName;
    private final String formatCodec;

    private transient Map<String, QueueWindows> queues;
    private transient WindowFormats formats;
    private transient QueenClient client;
    private transient WindowMetrics metrics;
    private transient OpenWindowBudget.Account budget;
    private transient Consumer<ClosedWindow> emitter;
    /** The writer chained behind this operator, when there is one: which closed windows it handed on. */
    private transient Optional<WindowHandover> handover;
    /** No queue can cut early until a frontier moves or a queue starts: over the budget, records then skip the scan. */
    private transient boolean nothingToCut;

    /**
     * @param format the lake's format, which the open windows keep their records in (the sink's:
     *     {@code LakePipeline} passes it)
     */
    public LakeWindowOperator(WindowSettings settings, Format format) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.formatName = format.name();
        this.formatCodec = format.codecName();
    }

    @Override
    public void open() throws Exception {
        super.open();
        SourceTaskCheck.verify(getContainingTask(), getOperatorConfig().getOperatorName());
        queues = new HashMap<>();
        formats = new WindowFormats(Format.of(formatName, formatCodec));
        metrics = new WindowMetrics(getMetricGroup());
        budget = OpenWindowBudget.account(settings.memoryBytes());
        emitter = w -> output.collect(new StreamRecord<>(w, WindowRules.lastMillis(w.window().bounds())));
        client = HttpQueenClient.builder()
                .baseUrl(settings.brokerUrl())
                .token(settings.token())
                .tenant(settings.tenant())
                .requestTimeout(settings.requestTimeout())
                .build();
        handover = WindowHandover.observeForThisTask();
        OpenWindows.register(this);
    }

    @Override
    public void processElement(StreamRecord<QueueEvent> element) throws Exception {
        QueueEvent event = element.getValue();
        if (event instanceof QueueRecord record) {
            started(record.queue()).add(record);
            if (budget.overBudget() && !nothingToCut) {
                cutTheLargest();
            }
        } else if (event instanceof QueueFrontier frontier) {
            started(frontier.queue()).advance(frontier.frontierMicros(), emitter);
            nothingToCut = false;
        } else if (event instanceof QueueStart start) {
            start(start);
            nothingToCut = false;
        }
    }

    private QueueWindows started(String queue) {
        QueueWindows windows = queues.get(queue);
        if (windows == null) {
            throw new IllegalStateException("queue '" + queue + "' sent a record or a frontier before its start:"
                    + " the source emits QueueStart first when a reader takes a queue's split");
        }
        return windows;
    }

    /**
     * Takes the queue's pointer and open intent as the reader read them in a batch just before the
     * start went out (or reads them, when that read failed): once per start, so a split that comes
     * back sees the pointer as it is now. Continues from the cut or the pointer, whichever is ahead.
     */
    private void start(QueueStart event) {
        String queue = event.queue();
        QueueWindows before = queues.remove(queue);
        if (before != null) {
            long dropped = before.dropOpen();
            LOG.info("queue '{}' started again (its split came back): its {} open records are dropped and read again"
                    + " from the cut's positions", queue, dropped);
        }
        PointerRestore.Start read = event.pointer().map(PointerRestore.Start::of)
                .orElseGet(() -> new PointerRestore(client, settings.sink(), RetryPolicy.standard()).start(queue));
        StartPoint start = StartPoint.decide(event.cut(), read);
        if (start.fromPointer()) {
            Optional<Committed> committed = read.committed();
            LOG.info("queue '{}' continues from the commit pointer: restored k={}, pointer k={}; next window k={},"
                    + " records below tEnd={} dropped", queue,
                    event.cut().map(c -> Long.toString(c.k())).orElse("none"),
                    committed.map(c -> Long.toString(c.k())).orElse("none"), start.k() + 1,
                    committed.map(c -> Long.toString(c.tEnd())).orElse("none"));
        } else {
            LOG.info("queue '{}' continues from its cut: next window k={} from tEnd={}, records below {} dropped",
                    queue, start.k() + 1, start.lastEnd(), start.pointerEnd());
        }
        start.redo().ifPresent(intent -> LOG.info("queue '{}' has an open intent: window k={} [{}, {}) is closed"
                + " first, as {} {} {}", queue, intent.k(), intent.tStart(), intent.tEnd(), intent.format(),
                intent.compression(), intent.layout().wireName()));
        queues.put(queue, new QueueWindows(queue, start, settings, formats, metrics.of(queue), budget, handover));
    }

    /**
     * Over the budget: of the queues holding records at or below their frontier, the one holding
     * the most in this operator closes its oldest open window early at its frontier. One cut per
     * record that finds the budget exceeded, so cuts stop as soon as the total is back under it.
     */
    private void cutTheLargest() {
        QueueWindows largest = null;
        for (QueueWindows windows : queues.values()) {
            if (windows.canCutEarly() && (largest == null || windows.weight() > largest.weight())) {
                largest = windows;
            }
        }
        if (largest == null) {
            nothingToCut = true;
        } else {
            largest.cutEarly(emitter);
        }
    }

    /**
     * Forwarded unchanged; a watermark closes nothing (windows close on their queue's frontier), and
     * Flink's final one ({@code Long.MAX_VALUE}, a drain) leaves the open windows open: a restart
     * reads them again from the broker.
     */
    @Override
    public void processWatermark(Watermark mark) {
        output.emitWatermark(mark);
    }

    @Override
    public Optional<Snapshot> snapshot(String queue) {
        QueueWindows windows = queues == null ? null : queues.get(queue);
        return windows == null ? Optional.empty() : Optional.of(windows.snapshot());
    }

    @Override
    public CompletableFuture<Void> ready() {
        return handover == null || handover.isEmpty() ? READY : handover.get().stagingRoom();
    }

    @Override
    public boolean overBudget() {
        return budget != null && budget.overBudget();
    }

    /**
     * The stamp below which every record of the queue is in a closed window (for the lag gauge):
     * where its last window ended while something is open, else up to its frontier; empty for a
     * queue not started.
     */
    OptionalLong closedThrough(String queue) {
        QueueWindows windows = queues == null ? null : queues.get(queue);
        return windows == null ? OptionalLong.empty() : OptionalLong.of(windows.closedThrough());
    }

    @Override
    public void close() throws Exception {
        try {
            OpenWindows.unregister(this);
            if (queues != null) {
                queues.values().forEach(QueueWindows::dropOpen);
                queues.clear();
            }
            if (budget != null) {
                budget.close();
            }
        } finally {
            super.close();
        }
    }

    /** One queue's metrics, for tests. */
    WindowMetrics.Queue metricsOf(String queue) {
        return metrics.of(queue);
    }

    /** The operator's metrics, for tests. */
    WindowMetrics metrics() {
        return metrics;
    }

    /** The queue's windows, for tests. */
    QueueWindows windowsOf(String queue) {
        return queues.get(queue);
    }

    /** The settings this operator runs with, for the pipeline's description. */
    public WindowSettings settings() {
        return settings;
    }
}
