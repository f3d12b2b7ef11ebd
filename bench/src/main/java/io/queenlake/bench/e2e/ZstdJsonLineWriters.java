package io.queenlake.bench.e2e;

import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import io.queenlake.source.QueueRecord;
import java.io.IOException;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;

/**
 * The JSON lines a Flink user writes with FileSink ({@link JsonLines}), compressed as the lake
 * compresses its JSONL: unsorted, in one zstd frame per part file at level 3, no checksum,
 * single-threaded. Compressing a whole file needs a bulk format, so the part rolls on checkpoint, as
 * the Parquet peer's does. Lines reach the compressor in 128 KiB writes, not one native call per field.
 */
final class ZstdJsonLineWriters implements BulkWriter.Factory<QueueRecord> {

    private static final int ZSTD_LEVEL = 3;
    private static final int BUFFER = 128 * 1024;

    @Override
    public BulkWriter<QueueRecord> create(FSDataOutputStream out) throws IOException {
        ZstdOutputStreamNoFinalizer zstd = new ZstdOutputStreamNoFinalizer(out, ZSTD_LEVEL);
        zstd.setChecksum(false);
        zstd.setWorkers(0);
        JsonLines lines = new JsonLines(zstd, BUFFER);
        return new BulkWriter<>() {
            @Override
            public void addElement(QueueRecord element) throws IOException {
                lines.write(element.record());
            }

            @Override
            public void flush() {
                // FileSink calls this just before finish(): a zstd flush would only end a block early
            }

            @Override
            public void finish() throws IOException {
                lines.flush();
                zstd.closeWithoutClosingParentStream(); // FileSink closes its own stream
            }
        };
    }
}
