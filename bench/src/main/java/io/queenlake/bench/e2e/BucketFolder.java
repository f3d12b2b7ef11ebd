package io.queenlake.bench.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The folder the embedded S3 server keeps one bucket in, read as the objects it holds: how many and
 * how large.
 */
final class BucketFolder {

    private final Path dir;

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
}
