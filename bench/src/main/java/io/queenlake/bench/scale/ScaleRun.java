package io.queenlake.bench.scale;

import com.fasterxml.jackson.databind.JsonNode;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.format.manifest.Committed;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One run of ScaleBench for {@code queues} queues: a fresh dev stack, the partitions seeded and the
 * trickle started, then {@code ./queen-lake run} ({@link RunProcess}) on every queue. Every
 * {@code poll-ms} it reads all the queues' commit pointers (in KV batches) and samples the job
 * ({@link JobSamples}): first until every queue has a pointer or the first-window timeout passes,
 * then, after {@code settle-s}, for {@code steady-s}, in which each queue's pointer's trail behind
 * the wall clock is a sample, and the pointers' k, the S3 server's requests, the broker's 429s and
 * both JVMs' CPU time are counted from its start to its end.
 */
final class ScaleRun {

    /** The job's sink: the default, as {@code ./queen-lake run} gives it. */
    private static final String SINK = "default";
    private static final long PROGRESS_EVERY_MS = 10_000;
    private static final int TOP_THREADS = 6;

    private final ScaleOptions options;
    private final int queues;

    ScaleRun(ScaleOptions options, int queues) {
        this.options = options;
        this.queues = queues;
    }

    static List<String> queueNames(int count) {
        List<String> names = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) {
            names.add(String.format(Locale.ROOT, "q%05d", i));
        }
        return names;
    }

    ScaleResult run() throws Exception {
        Path dir = options.dir().resolve(options.invocation()).resolve("q" + queues);
        Files.createDirectories(dir);
        List<String> names = queueNames(queues);
        System.out.println("== " + options.describe(queues));
        try (ScaleStack stack = ScaleStack.start(dir, options)) {
            Trickle trickle = new Trickle(stack.client(), names, options.partitions(), options.recordIntervalMs());
            long t0 = System.nanoTime();
            trickle.seed();
            System.out.printf(Locale.ROOT, "seeded %,d partitions in %.1f s; broker %s, S3 %s%n", queues * options.partitions(),
                    (System.nanoTime() - t0) / 1e9, stack.broker().url(), stack.s3().endpoint());
            List<String> runArgs = new ArrayList<>(List.of("--web-port", "0",
                    "--checkpoint-ms", Long.toString(options.checkpointMs()),
                    "--max-window-ms", Long.toString(options.windowMs()),
                    "--safe-guard-ms", Long.toString(options.guardMs())));
            if (options.stateDir()) {
                runArgs.addAll(List.of("--state-dir", dir.resolve("state").toString()));
            }
            runArgs.addAll(stack.jobArgs());
            runArgs.addAll(List.of("--queues", String.join(",", names)));
            List<String> command = RunProcess.command(options.repo(), options.jobJavaOpts(), runArgs);
            System.out.println("job: " + String.join(" ", command).replace(String.join(",", names),
                    names.size() == 1 ? names.get(0) : names.get(0) + ",...," + names.get(names.size() - 1)));
            trickle.start();
            try (trickle; RunProcess job = RunProcess.start(command, dir); JvmProbe jvm = JvmProbe.attach(job.pid())) {
                return measure(stack, trickle, job, jvm, names);
            }
        }
    }

    private ScaleResult measure(ScaleStack stack, Trickle trickle, RunProcess job, JvmProbe jvm, List<String> names)
            throws Exception {
        FlinkRest rest = new FlinkRest(job.web());
        String id = rest.onlyJob(Duration.ofMinutes(1));
        JsonNode info = rest.job(id);
        long submitted = info.path("start-time").asLong();
        List<FlinkRest.Vertex> vertices = rest.vertices(info);
        FlinkRest.Vertex source = vertices.stream().filter(v -> v.name().startsWith("Source")).findFirst()
                .orElse(vertices.get(0));
        String parallelism = vertices.stream().map(v -> String.valueOf(v.parallelism())).distinct()
                .collect(Collectors.joining("/")) + " (" + vertices.size() + " vertices)";
        System.out.printf(Locale.ROOT, "job %s submitted %.1f s after launch, web UI %s; vertices: %s%n", id,
                (submitted - job.launchedMillis()) / 1e3, job.web(), vertices.stream()
                        .map(v -> abbreviate(v.name()) + " x" + v.parallelism()).collect(Collectors.joining("; ")));
        JobSamples samples = new JobSamples(rest, job, jvm, id, vertices, source.id());
        CommitPointers pointers = new CommitPointers(stack.client(), SINK);

        // Phase 1: until every queue has its first committed window, or the timeout.
        Map<String, Long> firstSeen = new HashMap<>();
        long deadline = submitted + options.firstWindowTimeout().toMillis();
        long progressAt = 0;
        while (firstSeen.size() < queues && System.currentTimeMillis() < deadline) {
            check(trickle, job);
            long now = System.currentTimeMillis();
            for (Map.Entry<String, ObservedPointer> e : pointers.readAll(names).entrySet()) {
                if (e.getValue().pointer().isPresent()) {
                    firstSeen.putIfAbsent(e.getKey(), now);
                }
            }
            samples.sample(false);
            if (now >= progressAt) {
                progressAt = now + PROGRESS_EVERY_MS;
                System.out.printf(Locale.ROOT, "  %5.1f s after submission: %,d of %,d queues have a window; 429s %,d%n",
                        (now - submitted) / 1e3, firstSeen.size(), queues, stack.broker().kvWritesRefused());
            }
            pause(now);
        }
        List<Double> firstTimes = firstSeen.values().stream().map(t -> (t - submitted) / 1e3).toList();
        double all = firstSeen.size() == queues ? Stats.of(firstTimes).max() : Double.NaN;
        double half = firstTimes.size() * 2 >= queues
                ? firstTimes.stream().sorted().toList().get((queues + 1) / 2 - 1) : Double.NaN;
        System.out.printf(Locale.ROOT, "first windows: %,d of %,d queues, all at %s%n", firstSeen.size(), queues,
                Double.isNaN(all) ? "- (timeout)" : String.format(Locale.ROOT, "%.1f s", all));
        long settleEnd = System.currentTimeMillis() + options.settle().toMillis();
        while (System.currentTimeMillis() < settleEnd) {
            check(trickle, job);
            samples.sample(false);
            pause(System.currentTimeMillis());
        }

        // Phase 2: the steady state.
        Map<String, Long> s3Before = stack.s3Requests();
        long refusedBefore = stack.broker().kvWritesRefused();
        long kvWritesBefore = stack.broker().kvWriteCalls();
        long jobCpuBefore = job.cpuNanos();
        Map<String, Long> threadsBefore = jvm.cpuByThreadGroup();
        double loadBefore = loadAverage();
        long benchCpuBefore = benchCpuNanos();
        Map<String, Long> kBefore = ks(pointers.readAll(names));
        long steadyStart = System.currentTimeMillis();
        long steadyEnd = steadyStart + options.steady().toMillis();
        List<Double> trails = new ArrayList<>();
        Map<String, ObservedPointer> last = Map.of();
        progressAt = steadyStart + PROGRESS_EVERY_MS;
        while (System.currentTimeMillis() < steadyEnd) {
            pause(System.currentTimeMillis());
            check(trickle, job);
            long nowMicros = wallMicros();
            last = pointers.readAll(names);
            for (ObservedPointer p : last.values()) {
                p.pointer().ifPresent(c -> trails.add((nowMicros - c.tEnd()) / 1e6));
            }
            samples.sample(true);
            if (System.currentTimeMillis() >= progressAt) {
                progressAt += PROGRESS_EVERY_MS;
                System.out.printf(Locale.ROOT, "  steady %3.0f s: trail so far %s; windows committed %,d%n",
                        (System.currentTimeMillis() - steadyStart) / 1e3, trailLine(Stats.of(trails)),
                        committed(kBefore, ks(last)));
            }
        }
        long measuredEnd = System.currentTimeMillis();
        double seconds = (measuredEnd - steadyStart) / 1e3;
        Map<String, Long> s3 = stack.s3().requestsSince(s3Before);
        long refused = stack.broker().kvWritesRefused() - refusedBefore;
        long kvWrites = stack.broker().kvWriteCalls() - kvWritesBefore;
        double cpuJob = (job.cpuNanos() - jobCpuBefore) / 1e9 / seconds;
        Map<String, Double> threadCores = cores(threadsBefore, jvm.cpuByThreadGroup(), seconds);
        double cpuBench = (benchCpuNanos() - benchCpuBefore) / 1e9 / seconds;
        double[] load = {loadBefore, loadAverage()};
        int withoutPointer = (int) last.values().stream().filter(p -> p.pointer().isEmpty()).count();
        List<Double> allCheckpoints = samples.completedDurations(0, Long.MAX_VALUE);
        ScaleResult result = new ScaleResult(queues, options, parallelism, (submitted - job.launchedMillis()) / 1e3, all,
                half, firstSeen.size(), seconds, Stats.of(trails), committed(kBefore, ks(last)), withoutPointer,
                Stats.of(samples.completedDurations(steadyStart, measuredEnd)), samples.failed(steadyStart, measuredEnd),
                Stats.of(allCheckpoints).max(), Stats.of(samples.backPressured()), stats(samples.busy()), stats(samples.gauges()), samples.restMetricsFrozen(), s3, refused,
                stack.broker().kvWritesRefused(), kvWrites, samples.peakHeapBytes(), samples.peakLiveHeapBytes(), samples.heapMaxBytes(), samples.peakRssKiB(),
                cpuJob, threadCores, cpuBench, load, rest.jobMetric(id, "numRestarts"), rest.rootException(id), trickle.pushed(),
                trickle.maxBehindMs());
        System.out.println(result.table());
        return result;
    }

    /** Waits until the next poll is due, {@code poll-ms} after {@code since}. */
    private void pause(long since) throws InterruptedException {
        long wait = since + options.pollMs() - System.currentTimeMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    private static void check(Trickle trickle, RunProcess job) {
        if (trickle.failure() != null) {
            throw new IllegalStateException("the producer failed", trickle.failure());
        }
        if (!job.alive()) {
            throw new IllegalStateException("./queen-lake run ended (" + job.exit() + "): see job-stderr.log in the run's folder");
        }
    }

    private static Map<String, Long> ks(Map<String, ObservedPointer> pointers) {
        Map<String, Long> ks = new HashMap<>();
        pointers.forEach((queue, p) -> ks.put(queue, p.pointer().map(Committed::k).orElse(0L)));
        return ks;
    }

    /** Windows committed between two readings of the pointers: how far each queue's k moved, summed. */
    private static long committed(Map<String, Long> before, Map<String, Long> after) {
        long n = 0;
        for (Map.Entry<String, Long> e : after.entrySet()) {
            n += e.getValue() - before.getOrDefault(e.getKey(), 0L);
        }
        return n;
    }

    private static String trailLine(Stats s) {
        return String.format(Locale.ROOT, "p50 %.1f s, p95 %.1f s, max %.1f s", s.p50(), s.p95(), s.max());
    }

    private static String abbreviate(String name) {
        return name.length() <= 60 ? name : name.substring(0, 57) + "...";
    }

    /** The {@value #TOP_THREADS} thread groups that used the most CPU between two readings, in cores, most first. */
    private static Map<String, Double> cores(Map<String, Long> before, Map<String, Long> after, double seconds) {
        Map<String, Double> cores = new java.util.LinkedHashMap<>();
        after.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), (e.getValue() - before.getOrDefault(e.getKey(), 0L)) / 1e9 / seconds))
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(TOP_THREADS)
                .forEach(e -> cores.put(e.getKey(), e.getValue()));
        return cores;
    }

    private static Map<String, Stats> stats(Map<String, List<Double>> series) {
        Map<String, Stats> stats = new java.util.LinkedHashMap<>();
        series.forEach((name, values) -> stats.put(name, Stats.of(values)));
        return stats;
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static long benchCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static long wallMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
