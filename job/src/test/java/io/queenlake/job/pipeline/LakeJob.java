package io.queenlake.job.pipeline;

import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.format.object.Format;
import io.queenlake.format.window.WriterSettings;
import io.queenlake.iceberg.CatalogLink;
import io.queenlake.connector.sink.CrashPoint;
import io.queenlake.source.StartMode;
import java.util.List;
import java.util.Objects;

/**
 * One pipeline job as a test describes it: the sink name (KV keys, lease, instance), the lake root,
 * the queues, the writer settings (their align and target also drive the windows), the window size, the
 * parallelism, where a queue without a pointer starts, the checkpoint-object cadence, how often
 * Flink may restart it, an optional injected crash, an optional savepoint to restore, and an
 * optional Iceberg catalog, and the lease TTL.
 */
record LakeJob(
        String sink,
        String root,
        List<String> queues,
        WriterSettings writer,
        int parallelism,
        StartMode start,
        int checkpointEvery,
        int restartAttempts,
        CrashPoint crashAt,
        long crashFromK,
        String savepoint,
        long windowMs,
        long memoryMb,
        CatalogLink catalog,
        long leaseTtlMs) {

    /** Large enough that no test window is size-cut unless a test asks for it. */
    static final long NO_CUT = 64L * 1024 * 1024;

    LakeJob {
        Objects.requireNonNull(sink, "sink");
        Objects.requireNonNull(root, "root");
        queues = List.copyOf(queues);
        Objects.requireNonNull(writer, "writer");
        Objects.requireNonNull(start, "start");
    }

    /** JSONL zstd, merged, hour-aligned, parallelism 2, start=earliest, a checkpoint object every 3 windows, no restart. */
    static LakeJob of(String sink, String root, List<String> queues) {
        return new LakeJob(sink, root, queues,
                new WriterSettings(new Format.Jsonl(Compression.ZSTD), Layout.MERGED, Align.HOUR, NO_CUT),
                2, StartMode.EARLIEST, 3, 0, null, 0, null, PipelineRig.WINDOW_MS, 512, null,
                PipelineRig.LEASE_TTL_MS);
    }

    LakeJob writer(WriterSettings settings) {
        return new LakeJob(sink, root, queues, settings, parallelism, start, checkpointEvery, restartAttempts, crashAt,
                crashFromK, savepoint, windowMs, memoryMb, catalog, leaseTtlMs);
    }

    LakeJob parallelism(int p) {
        return new LakeJob(sink, root, queues, writer, p, start, checkpointEvery, restartAttempts, crashAt, crashFromK,
                savepoint, windowMs, memoryMb, catalog, leaseTtlMs);
    }

    /** A checkpoint object every {@code every} windows (0: none). */
    LakeJob checkpointEvery(int every) {
        return new LakeJob(sink, root, queues, writer, parallelism, start, every, restartAttempts, crashAt, crashFromK,
                savepoint, windowMs, memoryMb, catalog, leaseTtlMs);
    }

    LakeJob restoredFrom(String savepointPath) {
        return new LakeJob(sink, root, queues, writer, parallelism, start, checkpointEvery, restartAttempts, crashAt,
                crashFromK, savepointPath, windowMs, memoryMb, catalog, leaseTtlMs);
    }

    LakeJob restarts(int attempts) {
        return new LakeJob(sink, root, queues, writer, parallelism, start, checkpointEvery, attempts, crashAt,
                crashFromK, savepoint, windowMs, memoryMb, catalog, leaseTtlMs);
    }

    /** Crashes once at {@code point} on the first window numbered {@code fromK} or above; Flink may restart 3 times. */
    LakeJob crashOnceAt(CrashPoint point, long fromK) {
        return new LakeJob(sink, root, queues, writer, parallelism, start, checkpointEvery, Math.max(restartAttempts, 3),
                point, fromK, savepoint, windowMs, memoryMb, catalog, leaseTtlMs);
    }

    /** Windows of {@code ms} milliseconds instead of {@value PipelineRig#WINDOW_MS}. */
    LakeJob windowMs(long ms) {
        return new LakeJob(sink, root, queues, writer, parallelism, start, checkpointEvery, restartAttempts, crashAt,
                crashFromK, savepoint, ms, memoryMb, catalog, leaseTtlMs);
    }

    /** Open windows bounded by {@code mb} MiB ({@code QUEEN_S3_MEMORY_MB}) instead of the default 512. */
    LakeJob memoryMb(long mb) {
        return new LakeJob(sink, root, queues, writer, parallelism, start, checkpointEvery, restartAttempts, crashAt,
                crashFromK, savepoint, windowMs, mb, catalog, leaseTtlMs);
    }

    /** The same job writing another lake under another sink name (a control run). */
    LakeJob asSink(String otherSink, String otherRoot) {
        return new LakeJob(otherSink, otherRoot, queues, writer, parallelism, start, checkpointEvery, restartAttempts,
                crashAt, crashFromK, savepoint, windowMs, memoryMb, catalog, leaseTtlMs);
    }

    /** Also appends every committed window to its queue's Iceberg table through {@code link} (Parquet only). */
    LakeJob withCatalog(CatalogLink link) {
        return new LakeJob(sink, root, queues, writer, parallelism, start, checkpointEvery, restartAttempts, crashAt,
                crashFromK, savepoint, windowMs, memoryMb, link, leaseTtlMs);
    }

    /**
     * Leases of {@code ms} milliseconds instead of {@value PipelineRig#LEASE_TTL_MS}: a broker whose
     * KV write budget answers 429 with {@code Retry-After: 1} (whole seconds) can hold a refresh for
     * the client's three retries, so the TTL must outlast a refresh interval plus about 3 s.
     */
    LakeJob leaseTtlMs(long ms) {
        return new LakeJob(sink, root, queues, writer, parallelism, start, checkpointEvery, restartAttempts, crashAt,
                crashFromK, savepoint, windowMs, memoryMb, catalog, ms);
    }

    /** The job's instance name in leases: stable per sink, as a redeployment of the same job keeps it. */
    String instance() {
        return "pipeline-it-" + sink;
    }
}
