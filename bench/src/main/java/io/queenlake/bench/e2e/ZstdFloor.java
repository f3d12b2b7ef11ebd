package io.queenlake.bench.e2e;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.object.Format;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The floor's second half: what compressing a corpus's JSONL bytes alone costs, on this thread, at
 * the lake's zstd level, one frame per object fed in the encoder's 128 KiB chunks (FormatBench's
 * "zstd limit", here over the very lines a lake JSONL run wrote). The bytes are the JSONL of a run's
 * bucket, decompressed into memory first, so only the compression is timed; with the read-only
 * ceiling's CPU per record it makes the floor: read every record and compress its line, nothing else.
 *
 * @param source what the bytes were read from
 * @param jsonlBytes the uncompressed JSONL
 * @param compressedBytes what level {@value Compression#ZSTD_LEVEL} made of them
 * @param cpuNanos the median thread CPU time of the timed passes
 */
record ZstdFloor(String source, long records, long jsonlBytes, long compressedBytes, long cpuNanos) {

    private static final int CHUNK = 128 * 1024;
    private static final int TIMED_PASSES = 3;

    double cpuSecondsPerMillion() {
        return cpuNanos / 1e9 / (records / 1e6);
    }

    /**
     * Decompresses every JSONL+zstd object of {@code bucketDir} (the lake's data objects, or the
     * FileSink's part files) and times compressing them again: one unmeasured pass, then the median
     * of three.
     */
    static ZstdFloor measure(String source, Path bucketDir, long records) throws IOException {
        String suffix = "." + new Format.Jsonl(Compression.ZSTD).extension();
        List<byte[]> objects = new ArrayList<>();
        long jsonl = 0;
        for (Path f : new BucketFolder(bucketDir).objects()) {
            String name = f.getFileName().toString();
            if (!name.endsWith(suffix) || !(Format.isObjectKey(name) || name.startsWith("part-"))) {
                continue;
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(Integer.MAX_VALUE - 8, Files.size(f) * 8));
            try (InputStream in = new ZstdInputStreamNoFinalizer(Files.newInputStream(f))) {
                in.transferTo(out);
            }
            byte[] bytes = out.toByteArray();
            objects.add(bytes);
            jsonl += bytes.length;
        }
        if (objects.isEmpty()) {
            throw new IllegalStateException("no JSONL+zstd object in " + bucketDir);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long compressed = compress(objects);
        long[] cpu = new long[TIMED_PASSES];
        for (int pass = 0; pass < TIMED_PASSES; pass++) {
            long t0 = threads.getCurrentThreadCpuTime();
            compress(objects);
            cpu[pass] = threads.getCurrentThreadCpuTime() - t0;
        }
        Arrays.sort(cpu);
        return new ZstdFloor(source, records, jsonl, compressed, cpu[TIMED_PASSES / 2]);
    }

    private static long compress(List<byte[]> objects) throws IOException {
        Counter sink = new Counter();
        for (byte[] input : objects) {
            ZstdOutputStreamNoFinalizer zstd = new ZstdOutputStreamNoFinalizer(sink, Compression.ZSTD_LEVEL);
            zstd.setChecksum(false);
            zstd.setWorkers(0);
            for (int off = 0; off < input.length; off += CHUNK) {
                zstd.write(input, off, Math.min(CHUNK, input.length - off));
            }
            zstd.closeWithoutClosingParentStream();
        }
        return sink.bytes;
    }

    String describe() {
        return String.format(Locale.ROOT, "floor's zstd: %.1f MB of JSONL (%s, %,d records) to %.1f MB at level %d in"
                        + " %.2f CPU s (%.0f MB/s), %.2f CPU s / M records", jsonlBytes / 1e6, source, records,
                compressedBytes / 1e6, Compression.ZSTD_LEVEL, cpuNanos / 1e9, jsonlBytes / 1e6 / (cpuNanos / 1e9),
                cpuSecondsPerMillion());
    }

    private static final class Counter extends OutputStream {
        long bytes;

        @Override
        public void write(int b) {
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
        }
    }
}
