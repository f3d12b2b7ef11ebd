package io.queenlake.bench.e2e;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;

/**
 * Renders one corpus's runs as a Markdown table, then the ratios the targets are stated in. With
 * several rounds, a row is the peer's median run by records/s, and a ratio is the median of the rounds'
 * ratios, each taken between runs of the same round, with every round's figure after it.
 */
final class ResultTable {

    private ResultTable() {}

    static String render(Corpus corpus, Corpus.Census census, long payloadBytes, BenchOptions options,
            Map<Peer, List<RunResult>> results) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT,
                "%ncorpus %s: %,d records, %.1f MB payload (mean %.0f B), %d partitions of %d queues; window %d ms,"
                        + " checkpoint every %d ms, parallelism %d%n",
                corpus.name(), census.records(), payloadBytes / 1e6, (double) payloadBytes / census.records(),
                corpus.partitions(), corpus.queues().size(), options.windowMs(), options.checkpointInterval().toMillis(),
                options.parallelism()));
        out.append("queen-lake's window subtask of each queue (Flink's key-group hash): ");
        int maxParallelism = KeyGroupRangeAssignment.computeDefaultMaxParallelism(options.parallelism());
        out.append(String.join(", ", corpus.queues().stream().map(q -> q + " -> "
                + KeyGroupRangeAssignment.assignKeyToParallelOperator(q, maxParallelism, options.parallelism())).toList()));
        out.append("\n");
        int rounds = results.values().stream().mapToInt(List::size).max().orElse(0);
        if (rounds > 1) {
            out.append(String.format(Locale.ROOT, "%d rounds, every other one in reverse order; each row is the peer's"
                    + " median run by records/s%n", rounds));
        }
        out.append("\n");
        out.append("| run | s to commit all (first record, read all) | records/s | MB/s payload | CPU s / M records | of which JIT | peak heap MB"
                + " (live after GC) | peak state MB | checkpoints | objects (data) | S3 requests | bucket MB |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (List<RunResult> runs : results.values()) {
            RunResult r = medianRun(runs);
            out.append(String.format(Locale.ROOT, "| %s | %.1f (%.1f, %.1f) | %,.0f | %.1f | %.1f | %.1f | %d (%d) | %.2f | %d | %d (%d) | %d | %.1f |%n",
                    r.peer().label, r.seconds(), r.firstRecordSeconds(), r.readAllSeconds(), r.recordsPerSecond(), r.payloadMBps(), r.cpuSecondsPerMillion(),
                    r.jitSecondsPerMillion(), r.peakHeapBytes() >> 20, r.peakLiveHeapBytes() >> 20, r.peakStateBytes() / 1e6, r.checkpoints(), r.objects(), r.dataObjects(), r.s3RequestCount(),
                    r.bucketBytes() / 1e6));
        }
        out.append('\n');
        ratio(out, results, Peer.LAKE_JSONL, Peer.FILESINK_JSONL_ZSTD, "the same lines' fields, the same zstd");
        ratio(out, results, Peer.LAKE_PARQUET, Peer.FILESINK_PARQUET, "target >= 1.0");
        ratio(out, results, Peer.LAKE_JSONL, Peer.CEILING, "target >= 0.7");
        ratio(out, results, Peer.LAKE_PARQUET, Peer.CEILING, "target >= 0.7");
        return out.toString();
    }

    private static RunResult medianRun(List<RunResult> runs) {
        List<RunResult> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingDouble(RunResult::recordsPerSecond));
        return sorted.get((sorted.size() - 1) / 2);
    }

    /**
     * Throughput ratio (records/s of {@code a} over {@code b}) and CPU ratio (CPU per record of {@code b} over
     * {@code a}), the latter also without the JIT's share; each the median over the rounds.
     */
    private static void ratio(StringBuilder out, Map<Peer, List<RunResult>> results, Peer a, Peer b, String target) {
        List<RunResult> x = results.get(a);
        List<RunResult> y = results.get(b);
        if (x == null || y == null) {
            return;
        }
        List<Double> throughput = perRound(x, y, r -> r.recordsPerSecond(), false);
        out.append(String.format(Locale.ROOT, "%s / %s: %.2fx records/s (%s), %.2fx CPU efficiency, %.2fx without the JIT",
                a.label, b.label, median(throughput), target,
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
