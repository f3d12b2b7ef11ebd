package io.queenlake.bench.e2e;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Renders one corpus's runs as a Markdown table, then the ratios the targets are stated in. With
 * several rounds, a row is the peer's median run by records/s, and a ratio is the median of the rounds'
 * ratios, each taken between runs of the same round, with every round's figure after it.
 */
final class ResultTable {

    private ResultTable() {}

    /** The runs of one peer in one configuration. */
    record Key(RunConfig config, Peer peer) {}

    /**
     * {@code results} by configuration and peer, in the order they are to be printed; {@code floor}, if
     * measured, the corpus's zstd alone (the floor is it plus the ceiling's CPU per record).
     */
    static String render(Corpus corpus, Corpus.Census census, long payloadBytes, BenchOptions options,
            Map<Key, List<RunResult>> results, ZstdFloor floor) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT,
                "%ncorpus %s: %,d records, %.1f MB payload (mean %.0f B), %d partitions of %d queues; window %d ms,"
                        + " checkpoint every %d ms, parallelism %d%n",
                corpus.name(), census.records(), payloadBytes / 1e6, (double) payloadBytes / census.records(),
                corpus.partitions(), corpus.queues().size(), options.windowMs(), options.checkpointInterval().toMillis(),
                options.parallelism()));
        out.append("queen-lake: one split per queue, each given to the reader holding the fewest queues\n");
        int rounds = results.values().stream().mapToInt(List::size).max().orElse(0);
        if (rounds > 1) {
            out.append(String.format(Locale.ROOT, "%d rounds, every other one in reverse order; each row is the peer's"
                    + " median run by records/s%n", rounds));
        }
        for (RunConfig config : options.configs()) {
            out.append(config.describe()).append('\n');
        }
        out.append("\n");
        out.append("| configuration | run | s to commit all (first record, read all) | all read to committed, s | records/s | MB/s payload | CPU s / M records"
                + " | of which JIT | GC share of CPU | peak heap MB (live after GC) | peak checkpoint (written) | checkpoints | objects (data) | S3 requests | bucket MB |\n");
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (List<RunResult> runs : results.values()) {
            RunResult r = medianRun(runs);
            out.append(String.format(Locale.ROOT, "| %s | %s | %.1f (%.1f, %.1f) | %.1f | %,.0f | %.1f | %.1f | %.1f | %.0f%% | %d (%d) | %s | %d | %d (%d) | %d | %.1f |%n",
                    r.config().label(), r.peer().label, r.seconds(), r.firstRecordSeconds(), r.readAllSeconds(), r.readToCommitSeconds(), r.recordsPerSecond(),
                    r.payloadMBps(), r.cpuSecondsPerMillion(), r.jitSecondsPerMillion(), 100 * r.gcShare(), r.peakHeapBytes() >> 20, r.peakLiveHeapBytes() >> 20,
                    checkpointSize(r.peakStateBytes(), r.peakCheckpointedBytes()), r.checkpoints(), r.objects(), r.dataObjects(), r.s3RequestCount(),
                    r.bucketBytes() / 1e6));
        }
        out.append('\n');
        out.append("peak checkpoint: the largest completed checkpoint of the run by the job's checkpoint statistics (full state),"
                + " in brackets the most one checkpoint wrote where that was less (incremental)\n");
        out.append("all read to committed: from the source's last record to the commit of the whole corpus; GC share: this JVM's"
                + " garbage collector threads' CPU over the run's CPU (both JVMs)\n");
        tails(out, results);
        if (floor != null) {
            out.append(floor.describe()).append('\n');
        }
        for (RunConfig config : options.configs()) {
            String in = "[" + config.label() + "] ";
            ratio(out, results, new Key(config, Peer.LAKE_JSONL), new Key(config, Peer.FILESINK_JSONL_ZSTD), in, "the same lines' fields, the same zstd");
            ratio(out, results, new Key(config, Peer.LAKE_PARQUET), new Key(config, Peer.FILESINK_PARQUET), in, "target >= 1.0");
            ratio(out, results, new Key(config, Peer.LAKE_JSONL), new Key(config, Peer.CEILING), in, "target >= 0.7");
            ratio(out, results, new Key(config, Peer.LAKE_PARQUET), new Key(config, Peer.CEILING), in, "target >= 0.7");
            floorRatio(out, results, new Key(config, Peer.LAKE_JSONL), new Key(config, Peer.CEILING), floor, in);
            floorRatio(out, results, new Key(config, Peer.LAKE_PARQUET), new Key(config, Peer.CEILING), floor, in);
        }
        if (options.configs().size() > 1) {
            RunConfig base = options.configs().get(0);
            for (RunConfig other : options.configs().subList(1, options.configs().size())) {
                for (Peer peer : options.peers()) {
                    ratio(out, results, new Key(other, peer), new Key(base, peer), "", other.id() + " / " + base.id());
                }
            }
        }
        return out.toString();
    }

    /** A checkpoint size in KiB below 1 MiB, else MiB; the written size in brackets when it differs. */
    static String checkpointSize(long stateBytes, long writtenBytes) {
        String state = bytes(stateBytes);
        return writtenBytes > 0 && writtenBytes < stateBytes ? state + " (" + bytes(writtenBytes) + ")" : state;
    }

    static String bytes(long n) {
        return n < 1 << 20 ? String.format(Locale.ROOT, "%.1f KiB", n / 1024.0)
                : String.format(Locale.ROOT, "%.2f MiB", n / (1024.0 * 1024.0));
    }

    /**
     * The lake's CPU per record against the floor's, round by round: the ceiling's CPU per record of
     * the same round plus zstd alone over the corpus's JSONL ({@link ZstdFloor}); also without the JIT.
     */
    private static void floorRatio(StringBuilder out, Map<Key, List<RunResult>> results, Key lake, Key ceiling,
            ZstdFloor floor, String in) {
        List<RunResult> x = results.get(lake);
        List<RunResult> y = results.get(ceiling);
        if (x == null || y == null || floor == null) {
            return;
        }
        double zstd = floor.cpuSecondsPerMillion();
        List<Double> cpu = new ArrayList<>();
        List<Double> withoutJit = new ArrayList<>();
        List<Double> floors = new ArrayList<>();
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
            floors.add(y.get(i).cpuSecondsPerMillion() + zstd);
            cpu.add((y.get(i).cpuSecondsPerMillion() + zstd) / x.get(i).cpuSecondsPerMillion());
            withoutJit.add((y.get(i).cpuSecondsPerMillionWithoutJit() + zstd) / x.get(i).cpuSecondsPerMillionWithoutJit());
        }
        out.append(String.format(Locale.ROOT, "%s%s / floor (ceiling + zstd of the JSONL, %.1f CPU s / M records): %.2fx CPU"
                        + " efficiency, %.2fx without the JIT (by round: %s)%n", in, lake.peer().label, median(floors),
                median(cpu), median(withoutJit),
                String.join(", ", cpu.stream().map(t -> String.format(Locale.ROOT, "%.2f", t)).toList())));
    }

    /** Per configuration and peer, the medians over the rounds of the figures a row gives for its median run only. */
    private static void tails(StringBuilder out, Map<Key, List<RunResult>> results) {
        results.forEach((key, runs) -> out.append(String.format(Locale.ROOT,
                "[%s] %s, medians of %d rounds: all read to committed %.1f s (by round: %s), %.2f cores busy from the"
                        + " first record, busiest thread %.2f CPU s, CPU %.1f s / M records, GC %.0f%% of CPU, peak heap %d MB%n",
                key.config().label(), key.peer().label, runs.size(), median(figures(runs, RunResult::readToCommitSeconds)),
                String.join(", ", runs.stream().map(r -> String.format(Locale.ROOT, "%.1f", r.readToCommitSeconds())).toList()),
                median(figures(runs, RunResult::busyCoresAfterFirst)), median(figures(runs, RunResult::busiestThreadSeconds)),
                median(figures(runs, RunResult::cpuSecondsPerMillion)), 100 * median(figures(runs, RunResult::gcShare)),
                (long) median(figures(runs, r -> r.peakHeapBytes())) >> 20)));
    }

    private static List<Double> figures(List<RunResult> runs, ToDoubleFunction<RunResult> figure) {
        return runs.stream().map(figure::applyAsDouble).toList();
    }

    private static RunResult medianRun(List<RunResult> runs) {
        List<RunResult> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingDouble(RunResult::recordsPerSecond));
        return sorted.get((sorted.size() - 1) / 2);
    }

    /**
     * Throughput ratio (records/s of {@code a} over {@code b}, also counted from each run's first record,
     * which leaves out the cluster's start: 1 to 3 s that vary from run to run) and CPU ratio (CPU per
     * record of {@code b} over {@code a}), the latter also without the JIT's share; each the median over
     * the rounds.
     */
    private static void ratio(StringBuilder out, Map<Key, List<RunResult>> results, Key a, Key b, String in, String target) {
        List<RunResult> x = results.get(a);
        List<RunResult> y = results.get(b);
        if (x == null || y == null) {
            return;
        }
        List<Double> throughput = perRound(x, y, r -> r.recordsPerSecond(), false);
        String title = a.peer() == b.peer()
                ? a.peer().label + " [" + a.config().label() + " / " + b.config().label() + "]"
                : in + a.peer().label + " / " + b.peer().label;
        out.append(String.format(Locale.ROOT, "%s: %.2fx records/s (%s), %.2fx after the first record, %.2fx CPU"
                        + " efficiency, %.2fx without the JIT",
                title, median(throughput), target,
                median(perRound(x, y, RunResult::recordsPerSecondAfterFirst, false)),
                median(perRound(x, y, RunResult::cpuSecondsPerMillion, true)),
                median(perRound(x, y, RunResult::cpuSecondsPerMillionWithoutJit, true))));
        if (throughput.size() > 1) {
            out.append(" (records/s by round: ");
            out.append(String.join(", ", throughput.stream().map(t -> String.format(Locale.ROOT, "%.2f", t)).toList()));
            out.append(')');
        }
        out.append('\n');
    }

    /** Round by round, {@code a}'s figure over {@code b}'s, or the inverse where less is better. */
    private static List<Double> perRound(List<RunResult> a, List<RunResult> b, ToDoubleFunction<RunResult> figure,
            boolean lessIsBetter) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            double fa = figure.applyAsDouble(a.get(i));
            double fb = figure.applyAsDouble(b.get(i));
            ratios.add(lessIsBetter ? fb / fa : fa / fb);
        }
        return ratios;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
