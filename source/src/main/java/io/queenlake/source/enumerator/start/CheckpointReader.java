package io.queenlake.source.enumerator.start;

import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.CheckpointDoc;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a queue's newest bucket checkpoint at or below the committed window through Flink's
 * {@link FileSystem} ({@code s3://}, {@code file://}). The checkpoint is a cache, never needed for
 * correctness: any failure is logged and read as "no checkpoint".
 */
final class CheckpointReader {

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointReader.class);

    private final LakeRoot root;
    private final String tenant;

    CheckpointReader(LakeRoot root, String tenant) {
        this.root = root;
        this.tenant = tenant;
    }

    Optional<CheckpointDoc> newest(String queue, long atMostK) {
        SidecarKeys keys = new SidecarKeys(root.prefix(), tenant, queue);
        try {
            Path directory = new Path(root.path(keys.checkpointDirectory()));
            FileSystem fs = directory.getFileSystem();
            FileStatus[] listed;
            try {
                listed = fs.listStatus(directory);
            } catch (FileNotFoundException e) {
                return Optional.empty();
            }
            if (listed == null) {
                return Optional.empty();
            }
            List<String> names = new ArrayList<>(listed.length);
            for (FileStatus status : listed) {
                if (!status.isDir()) {
                    names.add(LakeRoot.keyOf(status.getPath().toUri()));
                }
            }
            Optional<String> newest = keys.latestCheckpoint(names, atMostK);
            if (newest.isEmpty()) {
                return Optional.empty();
            }
            byte[] body;
            try (InputStream in = fs.open(new Path(root.path(newest.get())))) {
                body = in.readAllBytes();
            }
            CheckpointDoc doc = CheckpointDoc.fromObjectBytes(body);
            if (doc.k() > atMostK) {
                LOG.warn("queue {}: ignoring checkpoint {}: it says k={} above the committed k={}",
                        queue, newest.get(), doc.k(), atMostK);
                return Optional.empty();
            }
            LOG.info("queue {}: starting from checkpoint {} (k={}, {} positions)",
                    queue, newest.get(), doc.k(), doc.positions().size());
            return Optional.of(doc);
        } catch (IOException | RuntimeException e) {
            LOG.warn("queue {}: ignoring the bucket checkpoints under {} ({}); starting from the commit pointer's tEnd",
                    queue, root.path(keys.checkpointDirectory()), e.toString());
            return Optional.empty();
        }
    }
}
