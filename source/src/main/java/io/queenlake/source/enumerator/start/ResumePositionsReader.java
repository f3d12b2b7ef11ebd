package io.queenlake.source.enumerator.start;

import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestJson;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where each partition of a queue continues after its commit pointer {@code k}, from the bucket
 * alone: the positions of the newest checkpoint at or below {@code k} (window {@code c}), then those
 * of manifests {@code c+1..k}, each naming the partitions of its window, a later window winning. So
 * every partition with a record in windows {@code 1..k} resumes exactly after its newest one, and a
 * start without Flink state sees a gap that retention left under the stopped job and names it.
 *
 * <p>A manifest that is missing, unreadable or without positions (the reference's, or one of a
 * release before them) leaves the partitions of its window at the checkpoint's older position; that
 * is logged once per queue. Nothing here is needed for correctness, only to name a loss exactly.
 */
final class ResumePositionsReader {

    private static final Logger LOG = LoggerFactory.getLogger(ResumePositionsReader.class);
    /** Manifests read after the checkpoint at most: past that, a partition only in older ones resumes from the checkpoint. */
    static final int MAX_MANIFESTS = 1_000;

    private final LakeRoot root;
    private final String tenant;
    private final CheckpointReader checkpoints;
    private final Executor reads;

    /** {@code reads} runs the bucket reads (the start plan loader's pool). */
    ResumePositionsReader(LakeRoot root, String tenant, Executor reads) {
        this.root = root;
        this.tenant = tenant;
        this.checkpoints = new CheckpointReader(root, tenant);
        this.reads = reads;
    }

    /**
     * Per partition name, where it continues after window {@code k}: the checkpoint's read, then the
     * manifests' reads, all on this reader's pool, so the plans of many queues are read together.
     */
    CompletableFuture<Map<String, CheckpointDoc.Position>> after(String queue, long k) {
        return CompletableFuture.supplyAsync(() -> checkpoints.newest(queue, k), reads)
                .thenCompose(checkpoint -> fold(queue, k, checkpoint));
    }

    private CompletableFuture<Map<String, CheckpointDoc.Position>> fold(String queue, long k,
            Optional<CheckpointDoc> checkpoint) {
        long checkpointK = checkpoint.map(CheckpointDoc::k).orElse(0L);
        long from = Math.max(checkpointK + 1, k - MAX_MANIFESTS + 1);
        if (from > checkpointK + 1) {
            LOG.warn("queue {}: {} windows since its newest bucket checkpoint; reading the positions of the last {}"
                    + " manifests only, so a partition seen only before window {} resumes from the checkpoint",
                    queue, k - checkpointK, MAX_MANIFESTS, from);
        }
        SidecarKeys keys = new SidecarKeys(root.prefix(), tenant, queue);
        List<CompletableFuture<Optional<Manifest>>> manifests = new ArrayList<>();
        for (long w = from; w <= k; w++) {
            String key = keys.manifest(w);
            manifests.add(CompletableFuture.supplyAsync(() -> read(key), reads));
        }
        return CompletableFuture.allOf(manifests.toArray(CompletableFuture[]::new)).thenApply(done -> {
            Map<String, CheckpointDoc.Position> positions = new HashMap<>();
            checkpoint.ifPresent(doc -> doc.positions().forEach(p -> positions.put(p.partition(), p)));
            long without = 0;
            long firstWithout = 0;
            for (int i = 0; i < manifests.size(); i++) {
                Optional<Manifest> manifest = manifests.get(i).join();
                if (manifest.isEmpty() || manifest.get().positions().isEmpty()) {
                    firstWithout = without++ == 0 ? from + i : firstWithout;
                    continue;
                }
                manifest.get().positions().forEach(p -> positions.put(p.partition(), p));
            }
            if (without > 0) {
                LOG.warn("queue {}: {} of manifests {}..{} (the first, {}) are missing, unreadable or carry no resume"
                        + " positions (written by the reference or an earlier release); the partitions of those windows"
                        + " resume from an older position, so a loss in them under the stopped job may be reported too"
                        + " wide", queue, without, from, k, firstWithout);
            }
            LOG.info("queue {}: {} resume positions after window {} (checkpoint {}, then {} manifests)", queue,
                    positions.size(), k, checkpoint.map(d -> "k=" + d.k()).orElse("none"), manifests.size());
            return positions;
        });
    }

    private Optional<Manifest> read(String key) {
        Path path = new Path(root.path(key));
        try {
            FileSystem fs = path.getFileSystem();
            byte[] body;
            try (InputStream in = fs.open(path)) {
                body = in.readAllBytes();
            }
            return Optional.of(ManifestJson.read(body));
        } catch (FileNotFoundException absent) {
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not read manifest {} for the resume positions: {}", root.path(key), e.toString());
            return Optional.empty();
        }
    }
}
