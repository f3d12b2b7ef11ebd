package io.queenlake.bench.e2e;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import io.queenlake.format.object.Format;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;

/**
 * The folder the embedded S3 server keeps one bucket in, read as the objects it holds: how many and
 * how large, and how many records the finished FileSink part files hold (JSON lines counted through
 * zstd, Parquet footers read). A file is counted again only when its size
 * changed since the last look, so polling a growing bucket reads each finished object about once.
 */
final class BucketFolder {

    private final Path dir;
    private final Map<Path, long[]> counted = new HashMap<>();

    BucketFolder(Path dir) {
        this.dir = dir;
    }

    /**
     * The objects of the bucket: the server's hidden bookkeeping files (a leading dot, such as the
     * stubs of multipart uploads in flight) left out. The server deletes such files while we walk,
     * so a walk that meets a vanished file is walked again.
     */
    List<Path> objects() throws IOException {
        for (int attempt = 1; ; attempt++) {
            if (!Files.isDirectory(dir)) {
                return List.of();
            }
            try (Stream<Path> files = Files.walk(dir)) {
                return files.filter(f -> !f.getFileName().toString().startsWith("."))
                        .filter(Files::isRegularFile)
                        .toList();
            } catch (UncheckedIOException e) {
                if (!(e.getCause() instanceof NoSuchFileException) || attempt == 10) {
                    throw e;
                }
            }
        }
    }

    long bytes() throws IOException {
        long sum = 0;
        for (Path f : objects()) {
            sum += sizeOrZero(f);
        }
        return sum;
    }

    private static long sizeOrZero(Path f) throws IOException {
        try {
            return Files.size(f);
        } catch (NoSuchFileException e) {
            return 0;
        }
    }

    /** Records in the finished part files of {@code format} (in-flight uploads are not objects yet). */
    long recordsInParts(Format format) throws IOException {
        String suffix = "." + format.extension();
        long sum = 0;
        for (Path f : objects()) {
            String name = f.getFileName().toString();
            if (!name.startsWith("part-") || !name.endsWith(suffix)) {
                continue;
            }
            long size = sizeOrZero(f);
            long[] seen = counted.get(f);
            if (seen == null || seen[0] != size) {
                long records = format instanceof Format.Parquet ? parquetRows(f) : lines(f);
                if (records < 0) {
                    continue; // not readable yet (still being written): look again at the next poll
                }
                seen = new long[] {size, records};
                counted.put(f, seen);
            }
            sum += seen[1];
        }
        return sum;
    }

    private static long lines(Path f) throws IOException {
        long lines = 0;
        byte[] buf = new byte[1 << 16];
        try (InputStream in = new ZstdInputStreamNoFinalizer(Files.newInputStream(f))) {
            for (int n; (n = in.read(buf)) > 0; ) {
                for (int i = 0; i < n; i++) {
                    if (buf[i] == '\n') {
                        lines++;
                    }
                }
            }
        } catch (NoSuchFileException e) {
            return -1;
        }
        return lines;
    }

    private static long parquetRows(Path f) {
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(f))) {
            return reader.getRecordCount();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
