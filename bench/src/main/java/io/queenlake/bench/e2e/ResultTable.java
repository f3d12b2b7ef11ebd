package io.queenlake.bench.e2e;

import java.util.Locale;
import java.util.Map;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;

/** Renders one corpus's runs as a Markdown table, then the ratios the targets are stated in. */
final class ResultTable {

    private ResultTable() {}

    static String render(Corpus corpus, Corpus.Census census, long payloadBytes, BenchOptions options,
            Map<Peer, RunResult> results) {
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
        out.append("\n\n");
        out.append("| run | s to commit all | records/s | MB/s payload | CPU s / M records | of which JIT | peak heap MB"
                + " (live after GC) | peak state MB | checkpoints | objects (data) | bucket MB |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (RunResult r : results.values()) {
            out.append(String.format(Locale.ROOT, "| %s | %.1f | %,.0f | %.1f | %.1f | %.1f | %d (%d) | %.2f | %d | %d (%d) | %.1f |%n",
                    r.peer().label, r.seconds(), r.recordsPerSecond(), r.payloadMBps(), r.cpuSecondsPerMillion(),
                    r.jitSecondsPerMillion(), r.peakHeapBytes() >> 20, r.peakLiveHeapBytes() >> 20, r.peakStateBytes() / 1e6, r.checkpoints(), r.objects(), r.dataObjects(),
                    r.bucketBytes() / 1e6));
        }
        out.append('\n');
        ratio(out, results, Peer.LAKE_JSONL, Peer.FILESINK_JSONL, "target >= 1.0");
        ratio(out, results, Peer.LAKE_PARQUET, Peer.FILESINK_PARQUET, "target >= 1.0");
        ratio(out, results, Peer.LAKE_JSONL, Peer.CEILING, "target >= 0.7");
        ratio(out, results, Peer.LAKE_PARQUET, Peer.CEILING, "target >= 0.7");
        return out.toString();
    }

    /**
     * Throughput ratio (records/s of {@code a} over {@code b}) and CPU ratio (CPU per record of {@code b} over
     * {@code a}), the latter also without the JIT's share.
     */
    private static void ratio(StringBuilder out, Map<Peer, RunResult> results, Peer a, Peer b, String target) {
        RunResult x = results.get(a);
        RunResult y = results.get(b);
        if (x == null || y == null) {
            return;
        }
        out.append(String.format(Locale.ROOT, "%s / %s: %.2fx records/s (%s), %.2fx CPU efficiency, %.2fx without the JIT%n",
                a.label, b.label, x.recordsPerSecond() / y.recordsPerSecond(), target,
                y.cpuSecondsPerMillion() / x.cpuSecondsPerMillion(),
                y.cpuSecondsPerMillionWithoutJit() / x.cpuSecondsPerMillionWithoutJit()));
    }
}
