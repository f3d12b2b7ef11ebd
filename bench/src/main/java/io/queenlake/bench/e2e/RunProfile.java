package io.queenlake.bench.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import one.profiler.AsyncProfiler;

/**
 * An async-profiler CPU profile of one measured run only, from the moment its clock starts to the
 * moment the corpus is committed: a profile of the whole JVM would mostly show loading the corpus,
 * the JIT and reading the lake back. Off unless {@code -Dbench.profile=<dir>} is given; the
 * library comes from {@code -Dbench.profile.lib} (see README). Writes
 * {@code <dir>/<bucket>.collapsed}: one line per thread and stack, thread name first.
 */
final class RunProfile implements AutoCloseable {

    private static final String DIR = System.getProperty("bench.profile");
    private static final String LIB = System.getProperty("bench.profile.lib", "/tmp/ap/linux-x64/libasyncProfiler.so");

    private final AsyncProfiler profiler;
    private final Path file;

    private RunProfile(AsyncProfiler profiler, Path file) {
        this.profiler = profiler;
        this.file = file;
    }

    static RunProfile start(String bucket) throws IOException {
        if (DIR == null) {
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
        if (profiler != null && !Files.exists(file)) {
            profiler.execute("stop,collapsed,file=" + file);
            System.out.println("  CPU profile of the run: " + file);
        }
    }
}
