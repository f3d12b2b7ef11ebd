package io.queenlake.bench.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiPredicate;
import one.profiler.AsyncProfiler;

/**
 * {@code -Dbench.profile=<dir>}: where the CPU of each measured run goes. async-profiler samples
 * every thread of this JVM (itimer, 2 ms, native frames included) from the moment the run's clock
 * starts until its corpus is committed, so neither loading the corpora nor reading the lake back is
 * in it, and never a warm-up run. It writes {@code <dir>/<bucket>.collapsed} (one line per thread
 * and stack, thread name first, then the sample count) and prints the samples by stage before the
 * run's own line: each sample goes to the first stage whose rule its thread name and frames meet. The broker's
 * JVM is not sampled. The native library is the one in the async-profiler jar on the class path
 * ({@code bench/target/lib}), copied into {@code <dir>}.
 */
final class RunProfile implements AutoCloseable {

    private static final String DIR = System.getProperty("bench.profile");
    private static final Map<String, BiPredicate<String, String>> STAGES = new LinkedHashMap<>();
    private static final String REST = "the source task, Flink's RPC, other";

    static {
        stage("JIT (compiler and sweeper threads)", (thread, stack) -> thread.contains("CompilerThre") || thread.contains("Sweeper"));
        stage("zstd", (thread, stack) -> stack.contains("libzstd"));
        stage("S3 server (the embedded S3Proxy)", (thread, stack) -> thread.contains("S3Proxy") || thread.matches("\\[pool-\\d+-thread.*"));
        stage("state snapshots", (thread, stack) -> thread.contains("AsyncOperations"));
        stage("the benchmark's own polling (main)", (thread, stack) -> thread.startsWith("[main "));
        stage("broker fetch and decode", (thread, stack) -> thread.contains("HttpClient")
                || stack.contains("FetchDecoder") || stack.contains("HttpQueenClient"));
        stage("commit and staging, S3 client side", (thread, stack) -> thread.contains("lake-committer") || thread.contains("s3a-transfer")
                || stack.contains("com/amazonaws") || stack.contains("org/apache/hadoop/fs/s3a"));
        stage("lines without zstd", (thread, stack) -> stack.contains("JsonlLineWriter") || stack.contains("ZstdJsonLineWriters")
                || stack.contains("JsonlObjectEncoder") || stack.contains("WindowEncoder") || stack.contains("sha256"));
        stage("keyed shuffle: serialize, send, deserialize", (thread, stack) -> stack.contains("Deserializer")
                || stack.contains("RecordWriter") || stack.contains("QueueRecordSerializer"));
        stage("window operator", (thread, stack) -> thread.contains("Broker-clock") || stack.contains("LakeWindowOperator"));
    }

    private static Path library;

    private final AsyncProfiler profiler;
    private final Path file;
    private boolean closed;

    private RunProfile(AsyncProfiler profiler, Path file) {
        this.profiler = profiler;
        this.file = file;
    }

    private static void stage(String name, BiPredicate<String, String> rule) {
        STAGES.put(name, rule);
    }

    /** Starts profiling the run into {@code bucket}'s file when {@code -Dbench.profile} is given and the run is measured. */
    static RunProfile start(String bucket, boolean measured) throws IOException {
        if (DIR == null || !measured) {
            return new RunProfile(null, null);
        }
        Path dir = Path.of(DIR);
        Files.createDirectories(dir);
        AsyncProfiler profiler = AsyncProfiler.getInstance(library(dir).toString());
        profiler.execute("start,event=itimer,interval=2ms,threads");
        return new RunProfile(profiler, dir.resolve(bucket + ".collapsed"));
    }

    /** Stops the profile, writes it and prints its stages; a second call does nothing. */
    @Override
    public void close() throws IOException {
        if (profiler != null && !closed) {
            closed = true;
            profiler.execute("stop,collapsed,file=" + file);
            StringBuilder out = new StringBuilder(String.format("  CPU samples of the run by stage (%s):%n", file));
            long total = 0;
            for (Map.Entry<String, Long> s : stagesOf(file).entrySet()) {
                out.append(String.format(Locale.ROOT, "  %,9d  %s%n", s.getValue(), s.getKey()));
                total += s.getValue();
            }
            System.out.print(out.append(String.format(Locale.ROOT, "  %,9d  total%n", total)));
        }
    }

    /** This JVM's copy of the library the async-profiler jar carries for this platform. */
    private static synchronized Path library(Path dir) throws IOException {
        if (library == null) {
            String platform = System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("mac") ? "macos"
                    : System.getProperty("os.arch").equals("aarch64") ? "linux-arm64" : "linux-x64";
            Path lib = dir.resolve("libasyncProfiler.so");
            try (InputStream in = AsyncProfiler.class.getResourceAsStream("/" + platform + "/libasyncProfiler.so")) {
                if (in == null) {
                    throw new IllegalStateException("-Dbench.profile: the async-profiler jar on the class path has no "
                            + platform + " library; run with -cp \"bench/target/queen-lake-bench-0.1.0.jar:bench/target/lib/*\"");
                }
                Files.copy(in, lib, StandardCopyOption.REPLACE_EXISTING);
            }
            library = lib;
        }
        return library;
    }

    private static Map<String, Long> stagesOf(Path file) throws IOException {
        Map<String, Long> samples = new LinkedHashMap<>();
        STAGES.keySet().forEach(s -> samples.put(s, 0L));
        samples.put(REST, 0L);
        for (String line : Files.readAllLines(file)) {
            int count = line.lastIndexOf(' ');
            int thread = line.indexOf(';');
            if (count < 0 || thread < 0 || thread > count) {
                continue;
            }
            samples.merge(stageOf(line.substring(0, thread), line.substring(thread, count)),
                    Long.parseLong(line.substring(count + 1)), Long::sum);
        }
        return samples;
    }

    private static String stageOf(String thread, String stack) {
        for (Map.Entry<String, BiPredicate<String, String>> s : STAGES.entrySet()) {
            if (s.getValue().test(thread, stack)) {
                return s.getKey();
            }
        }
        return REST;
    }
}
