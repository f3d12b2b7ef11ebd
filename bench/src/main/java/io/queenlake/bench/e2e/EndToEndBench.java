package io.queenlake.bench.e2e;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.object.Format;
import io.queenlake.job.config.LakeFileSystem;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.DefaultPluginManager;
import org.apache.flink.core.plugin.DirectoryBasedPluginFinder;

/**
 * Issue 7's end-to-end benchmark, in one invocation so the ratios compare like with like on a
 * noisy machine: the dev broker in a JVM of its own (its data dir keeps the seeded corpora between
 * invocations) and the embedded S3 server in this one; per corpus, each {@link Peer} on its own MiniCluster and
 * fresh bucket from {@code start=earliest} until the corpus is committed; then the lag run. Prints
 * one table per corpus and the ratios the targets are stated in. Arguments: {@link BenchOptions#USAGE}.
 */
public final class EndToEndBench {

    private static final long SEED = 42;
    /** The longest a measured run waits for the JIT to go quiet (see {@link JitQuiet}). */
    private static final Duration JIT_QUIET_MAX = Duration.ofSeconds(90);

    private EndToEndBench() {}

    public static void main(String[] args) throws Exception {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("EndToEndBench: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.setProperty("aws.java.v1.disableDeprecationAnnouncement", "true");
        System.out.println(machine());
        if (!ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption("AlwaysPreTouch").getValue()
                .equals("true")) {
            // Measured: without it the first run that grows the young generation paid 3-9 CPU s per M records more (RESULTS).
            System.out.println("warning: the heap is not pre-touched (-XX:+AlwaysPreTouch): whichever run first grows the"
                    + " heap pays the kernel's page faults for it, and the ratios carry that (bench/README.md)");
        }
        Path s3Dir = options.dir().resolve("s3");
        // Every invocation starts on empty buckets and without checkpoints; the broker's corpora are kept.
        deleteTree(s3Dir);
        deleteTree(options.dir().resolve("checkpoints"));
        try (BrokerProcess broker = BrokerProcess.start(options.dir().resolve("broker"));
                EmbeddedS3 s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(s3Dir).bucket("e2e").build())) {
            Stack stack = new Stack(broker, HttpQueenClient.builder().baseUrl(broker.url().toString())
                    .requestTimeout(Duration.ofSeconds(60)).build(), s3);
            initializeFileSystems(stack);
            System.out.println(broker.describe());

            Corpus warmup = corpus(options.warmupRecords(), options.partitions(), options);
            Corpus main = corpus(options.records(), options.partitions(), options);
            Corpus wide = corpus(options.wideRecords(), options.widePartitions(), options);
            Corpus.Census warmupCensus = warmup.ensurePushed(stack.client(), options.pushThreads());
            Corpus.Census mainCensus = main.ensurePushed(stack.client(), options.pushThreads());
            Corpus.Census wideCensus = options.wide() ? wide.ensurePushed(stack.client(), options.pushThreads()) : null;
            Corpus backfill = LagRun.backfillCorpus(options);
            Corpus.Census backfillCensus = options.lagSeconds() > 0 && options.lag().backfill()
                    ? LagRun.ensureBackfill(stack, backfill, options) : null;
            for (RunConfig config : options.configs()) {
                System.out.println(config.describe());
            }

            // One pass over a small corpus first, so no run pays for class loading alone; then unmeasured
            // rounds of the main corpus, so the measured ones run code the JIT has compiled, as a job does
            // after its first minutes.
            runAll(stack, warmup, warmupCensus, options, List.of(1), false);
            List<Integer> warmupRounds = new ArrayList<>();
            for (int round = 1; round <= options.warmupRounds(); round++) {
                warmupRounds.add(-round);
            }
            runAll(stack, main, mainCensus, options, warmupRounds, false);
            List<Integer> rounds = new ArrayList<>();
            for (int round = 1; round <= options.rounds(); round++) {
                rounds.add(round);
            }
            runAll(stack, main, mainCensus, options, rounds, true);
            if (options.wide()) {
                runAll(stack, wide, wideCensus, options, rounds, true);
            }
            if (options.lagSeconds() > 0) {
                for (RunConfig config : options.configs()) {
                    if (options.lag().live()) {
                        System.out.println(LagRun.describe(new LagRun(stack, options, config, null, null).run()));
                    }
                    if (options.lag().backfill()) {
                        System.out.println(LagRun.describe(
                                new LagRun(stack, options, config, backfill, backfillCensus).run()));
                    }
                }
            }
        }
        System.exit(0); // the S3 file system plugin leaves non-daemon threads behind
    }

    private static Corpus corpus(int records, int partitions, BenchOptions options) {
        String name = "r" + records + "-p" + partitions;
        return new Corpus(name, options.queueSuffixes().stream().map(s -> name + "-" + s.trim()).toList(),
                partitions, records, SEED);
    }

    /**
     * Runs every peer on {@code corpus} once per round, every other round in reverse order; prints the
     * table when {@code print}. Warm-up rounds are numbered below 0 (see {@link EndToEndRun#bucket}).
     */
    private static void runAll(Stack stack, Corpus corpus, Corpus.Census census, BenchOptions options,
            List<Integer> rounds, boolean print) throws Exception {
        long payload = corpus.payloadBytes();
        EndToEndRun runs = new EndToEndRun(stack, corpus, census, payload, options, print);
        // Printed by configuration, then peer; run interleaved, every other round in reverse order.
        Map<ResultTable.Key, List<RunResult>> results = new LinkedHashMap<>();
        List<ResultTable.Key> keys = new ArrayList<>();
        for (RunConfig config : options.configs()) {
            for (Peer peer : options.peers()) {
                keys.add(new ResultTable.Key(config, peer));
            }
        }
        for (int round : rounds) {
            List<ResultTable.Key> order = new ArrayList<>(keys);
            if (Math.abs(round) % 2 == 0) {
                Collections.reverse(order);
            }
            for (ResultTable.Key key : order) {
                Peer peer = key.peer();
                if (print) {
                    System.out.println(JitQuiet.await(JIT_QUIET_MAX));
                }
                RunResult r = runs.run(peer, key.config(), round);
                results.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
                System.out.printf(Locale.ROOT, "%s%s [%s] on %s%s: %.1f s (first record at %.1f s, all read at %.1f s), %,.0f records/s, %d objects, %,d records read back%n",
                        print ? "" : "(warm-up) ", peer.label, key.config().label(), corpus.name(), rounds.size() > 1 ? " (round " + round + ")" : "",
                        r.seconds(), r.firstRecordSeconds(), r.readAllSeconds(), r.recordsPerSecond(), r.objects(), r.recordsVerified());
                System.out.printf(Locale.ROOT, "  all read to committed %.1f s; %.2f of %d cores busy from the first record; CPU %.2f s / M records (broker's JVM %.2f, JIT %.2f, GC %.2f: %.0f%%); peak heap %d MB (live %d MB)%n",
                        r.readToCommitSeconds(), r.busyCoresAfterFirst(), Runtime.getRuntime().availableProcessors(), r.cpuSecondsPerMillion(), r.brokerCpuSeconds() / (r.records() / 1e6), r.jitSecondsPerMillion(), r.gcSeconds() / (r.records() / 1e6),
                        100 * r.gcShare(), r.peakHeapBytes() >> 20, r.peakLiveHeapBytes() >> 20);
                System.out.printf(Locale.ROOT, "  busiest thread: %.2f CPU s, %s%n", r.busiestThreadSeconds(), r.busiestThread());
                System.out.printf(Locale.ROOT, "  peak checkpoint: %s in %d checkpoints%n",
                        ResultTable.checkpointSize(r.peakStateBytes(), r.peakCheckpointedBytes()), r.checkpoints());
                r.peakStateByTask().forEach((task, bytes) -> System.out.printf(Locale.ROOT,
                        "  peak state of task '%s': %s%n", task, ResultTable.bytes(bytes)));
                System.out.printf(Locale.ROOT, "  S3 requests: %s%n", r.s3Requests());
                if (r.recordsVerified() != census.records()) {
                    System.out.printf("  WARNING: %s read back %,d records, the corpus has %,d%n", peer.label,
                            r.recordsVerified(), census.records());
                }
            }
        }
        if (print) {
            System.out.println(ResultTable.render(corpus, census, payload, options, results, floor(stack, runs, census, options)));
        }
    }

    /**
     * zstd alone over the corpus's JSONL, read from the first measured round's lake JSONL bucket (else
     * the FileSink JSON lines'), for the floor; null when neither ran or there is no ceiling to add it to.
     */
    private static ZstdFloor floor(Stack stack, EndToEndRun runs, Corpus.Census census, BenchOptions options)
            throws IOException {
        if (!options.peers().contains(Peer.CEILING)) {
            return null;
        }
        for (Peer source : List.of(Peer.LAKE_JSONL, Peer.FILESINK_JSONL_ZSTD)) {
            if (options.peers().contains(source)) {
                String bucket = runs.bucket(source, options.configs().get(0), 1);
                return ZstdFloor.measure(source.label + " bucket " + bucket, stack.bucketDir(bucket), census.records());
            }
        }
        System.out.println("no floor: it compresses the JSONL of a lake-jsonl or filesink-jsonl-zstd run, and neither ran");
        return null;
    }

    /** The s3:// file system for this process, loaded as a plugin as a Flink cluster loads it. */
    private static void initializeFileSystems(Stack stack) throws IOException {
        Configuration conf = LakeFileSystem.configuration(new Configuration(),
                stack.settings(List.of("probe"), "e2e", 1_000, new Format.Jsonl(Compression.ZSTD)));
        String fromEnv = System.getenv("FLINK_PLUGINS_DIR");
        Path plugins = fromEnv != null && !fromEnv.isBlank() ? Path.of(fromEnv) : Path.of("bench/target/flink-plugins");
        if (!Files.isDirectory(plugins.resolve("s3-fs-hadoop"))) {
            throw new IllegalStateException("the S3 file system plugin is not in " + plugins.resolve("s3-fs-hadoop")
                    + ": build the bench with 'mvn -o -q -pl bench -am package -DskipTests' and run from the repository"
                    + " root, or set FLINK_PLUGINS_DIR to a folder holding s3-fs-hadoop/.");
        }
        FileSystem.initialize(conf, new DefaultPluginManager(new DirectoryBasedPluginFinder(plugins).findPlugins(),
                CoreOptions.getPluginParentFirstLoaderPatterns(conf)));
    }

    private static String machine() throws IOException {
        String cpu = "unknown CPU";
        Path cpuinfo = Path.of("/proc/cpuinfo");
        if (Files.isReadable(cpuinfo)) {
            cpu = Files.readAllLines(cpuinfo).stream().filter(l -> l.startsWith("model name")).findFirst()
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse(cpu);
        }
        return String.format(Locale.ROOT, "machine: %d cores (%s), %s %s, max heap %d MB, load average %.1f",
                Runtime.getRuntime().availableProcessors(), cpu, System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version"), Runtime.getRuntime().maxMemory() >> 20,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        List<Path> paths = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.forEach(paths::add);
        }
        paths.sort(Comparator.reverseOrder());
        for (Path p : paths) {
            Files.delete(p);
        }
    }
}
