package io.queenlake.bench.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import one.profiler.AsyncProfiler;

/**
 * An async-profiler CPU profile of one measured run only, from the moment its clock starts to the
 * moment the corpus is committed: a profile of the whole JVM would mostly show loading the corpus,
 * the JIT and reading the lake back. Off unless {@code -Dbench.profile=<dir>} is given, and
 * never for warm-up runs; the library comes from {@code -Dbench.profile.lib} (see README). Writes
 * {@code <dir>/<bucket>.collapsed}: one line per thread and stack, thread name first. It samples
 * this JVM only: the broker's share of the run's CPU, in its own JVM, is not in it.
 */
final class RunProfile implements AutoCloseable {

    private static final String DIR = System.getProperty("bench.profile");
    private static final String LIB = System.getProperty("bench.profile.lib", "/tmp/ap/linux-x64/libasyncProfiler.so");

    private final AsyncProfiler profiler;
    private final Path file;
    private boolean closed;

    private RunProfile(AsyncProfiler profiler, Path file) {
        this.profiler = profiler;
        this.file = file;
    }

    static RunProfile start(String bucket, boolean measured) throws IOException {
        if (DIR == null || !measured) {
            return new RunProfile(null, null);
        }
        Path dir = Path.of(DIR);
        Files.createDirectories(dir);
        AsyncProfiler profiler = AsyncProfiler.getInstance(LIB);
        profiler.execute("start,event=itimer,interval=2ms,threads");
        return new RunProfile(profiler, dir.resolve(bucket + ".collapsed"));
    }

    /** Stops the profile and writes it; a second call does nothing. */
    @Override
    public void close() throws IOException {
        if (profiler != null && !closed) {
            closed = true;
            profiler.execute("stop,collapsed,file=" + file);
            System.out.println("  CPU profile of the run: " + file);
        }
    }
}
