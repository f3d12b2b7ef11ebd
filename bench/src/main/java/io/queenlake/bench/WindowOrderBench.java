package io.queenlake.bench;

import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.order.Incarnation;
import io.queenlake.format.order.Incarnations;
import io.queenlake.format.order.OrderedRecords;
import io.queenlake.format.order.Utf8ByteOrder;
import io.queenlake.format.order.WindowRecordOrder;
import io.queenlake.format.window.SizeCut;
import io.queenlake.format.window.WriterSettings;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The window's bookkeeping before encoding, old against new in one JVM: lake order, size-cut
 * stamps, the manifest's per-window figures and the resume positions, over windows shaped like
 * the end-to-end benchmark's (about 14,000 records of about 300 B over 100 partitions per 1 s
 * window, partitions interleaved in short runs, every record with its own name strings as after
 * deserialization). The old path is the code as it was before issue 7's lever 3, copied here
 * ({@link Before}); the new one calls the format module. Encoding is not timed. With
 * {@code -Dshared=true} the records of one partition share their name and id strings, as they would
 * if deserialization deduplicated them (a diagnostic of what that would save; it does not now).
 *
 * <pre>
 * java -Xmx1g -cp "bench/target/queen-lake-bench-0.1.0.jar:bench/target/lib/*" io.queenlake.bench.WindowOrderBench \
 *     [records=14000] [partitions=100] [windows=40] [warmups=5] [rounds=15]
 * </pre>
 */
public final class WindowOrderBench {

    private static final boolean SHARED = Boolean.getBoolean("shared");

    private WindowOrderBench() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            options.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        int records = Integer.parseInt(options.getOrDefault("records", "14000"));
        int partitions = Integer.parseInt(options.getOrDefault("partitions", "100"));
        int windows = Integer.parseInt(options.getOrDefault("windows", "40"));
        int warmups = Integer.parseInt(options.getOrDefault("warmups", "5"));
        int rounds = Integer.parseInt(options.getOrDefault("rounds", "15"));
        long target = WriterSettings.DEFAULT_TARGET_BYTES;

        List<List<LogRecord>> corpus = new ArrayList<>(windows);
        Random random = new Random(42);
        for (int w = 0; w < windows; w++) {
            corpus.add(window(random, w, records, partitions));
        }
        for (List<LogRecord> window : corpus) {
            if (!Before.inLakeOrder(window).equals(WindowRecordOrder.inLakeOrder(window))) {
                throw new IllegalStateException("old and new lake order differ: the bench compares unlike things");
            }
        }
        long[] sink = new long[1];
        Stopwatch.Task before = () -> {
            for (List<LogRecord> window : corpus) {
                List<LogRecord> ordered = Before.inLakeOrder(window);
                sink[0] += Before.cutStamps(window, target).length;
                sink[0] += Before.manifestFigures(ordered);
                sink[0] += Before.resumePositions(window).size();
            }
        };
        Stopwatch.Task after = () -> {
            for (List<LogRecord> window : corpus) {
                OrderedRecords ordered = WindowRecordOrder.order(window);
                sink[0] += SizeCut.cutStamps(window, target).length;
                sink[0] += ordered.partitions().size() + ordered.minTs() + ordered.maxTs() + ordered.records().size();
                sink[0] += resumePositions(window).size();
            }
        };
        Stopwatch.Comparison c = new Stopwatch(warmups, rounds).compare(before, after);
        System.out.printf(Locale.ROOT, "WindowOrderBench: %d windows x %d records over %d partitions, %d rounds%n",
                windows, records, partitions, rounds);
        System.out.printf(Locale.ROOT, "  before: %.1f ms wall, %.1f ms CPU per round (%.2f us CPU per window)%n",
                c.baselineNanos() / 1e6, c.baselineCpuNanos() / 1e6, c.baselineCpuNanos() / 1e3 / windows);
        System.out.printf(Locale.ROOT, "  after:  %.1f ms wall, %.1f ms CPU per round (%.2f us CPU per window)%n",
                c.candidateNanos() / 1e6, c.candidateCpuNanos() / 1e6, c.candidateCpuNanos() / 1e3 / windows);
        System.out.printf(Locale.ROOT, "  ratio before/after: %.2fx wall, %.2fx CPU (median of per-round ratios)  [%d]%n",
                c.ratio(), c.cpuRatio(), sink[0] % 10);
    }

    /** The job's ResumePositions.after as it is now (package-private there). */
    private static Map<String, CheckpointDoc.Position> resumePositions(Collection<LogRecord> records) {
        Map<String, LogRecord> newest = new HashMap<>();
        for (Incarnation i : Incarnations.of(records).all()) {
            newest.merge(i.partition(), i.newest(), (a, b) -> Before.isNewer(b, a) ? b : a);
        }
        Map<String, CheckpointDoc.Position> positions = new HashMap<>();
        newest.forEach((p, r) -> positions.put(p, new CheckpointDoc.Position(p, r.offset() + 1, r.partitionId())));
        return positions;
    }

    /**
     * One 1 s window: records spread round-robin over the partitions with ascending stamps, each
     * partition in offset order, partitions interleaved in runs of 1 to 8 records; names, ids and
     * transaction ids are fresh strings per record, as the keyBy shuffle deserializes them.
     */
    private static List<LogRecord> window(Random random, int w, int records, int partitions) {
        long t0 = 1_780_000_000_000_000L + w * 1_000_000L;
        List<Deque<LogRecord>> lanes = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            lanes.add(new ArrayDeque<>());
        }
        for (int i = 0; i < records; i++) {
            int p = i % partitions;
            String name = "customer-" + p;
            String id = String.format(Locale.ROOT, "%08x-0000-4000-8000-%012x", p, p * 7919L);
            String txn = Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong());
            lanes.get(p).add(new LogRecord(SHARED ? name.intern() : new String(name), SHARED ? id.intern() : new String(id), w * 1000L + i / partitions, txn,
                    t0 + (long) i * 1_000_000L / records, new byte[250 + random.nextInt(100)]));
        }
        List<LogRecord> out = new ArrayList<>(records);
        List<Deque<LogRecord>> open = new ArrayList<>(lanes);
        while (!open.isEmpty()) {
            int i = random.nextInt(open.size());
            Deque<LogRecord> lane = open.get(i);
            for (int k = 1 + random.nextInt(8); k > 0 && !lane.isEmpty(); k--) {
                out.add(lane.poll());
            }
            if (lane.isEmpty()) {
                open.remove(i);
            }
        }
        return out;
    }

    /** The code of WindowRecordOrder, SizeCut.cutStamps, WindowEncoder.manifestOf and ResumePositions at 5fd7d10. */
    private static final class Before {

        private record Incarnation(String partition, String partitionId) {}

        static List<LogRecord> inLakeOrder(Collection<LogRecord> records) {
            Map<Incarnation, long[]> firstStamp = firstStamps(records);
            boolean manyIncarnations = firstStamp.size() > firstStamp.keySet().stream()
                    .map(Incarnation::partition).distinct().count();
            List<LogRecord> sorted = new ArrayList<>(records);
            Comparator<LogRecord> byName = (x, y) -> Utf8ByteOrder.INSTANCE.compare(x.partition(), y.partition());
            Comparator<LogRecord> order = manyIncarnations
                    ? byName.thenComparing((x, y) -> compareIncarnations(x, y, firstStamp))
                    : byName;
            sorted.sort(order.thenComparingLong(LogRecord::offset));
            return sorted;
        }

        private static Map<Incarnation, long[]> firstStamps(Collection<LogRecord> records) {
            Map<Incarnation, long[]> first = new HashMap<>();
            for (LogRecord r : records) {
                long[] seen = first.computeIfAbsent(new Incarnation(r.partition(), r.partitionId()),
                        i -> new long[] {Long.MAX_VALUE, Long.MAX_VALUE});
                if (r.offset() < seen[0] || (r.offset() == seen[0] && r.tsMicros() < seen[1])) {
                    seen[0] = r.offset();
                    seen[1] = r.tsMicros();
                }
            }
            return first;
        }

        private static int compareIncarnations(LogRecord x, LogRecord y, Map<Incarnation, long[]> firstStamp) {
            if (x.partitionId().equals(y.partitionId())) {
                return 0;
            }
            long tx = firstStamp.get(new Incarnation(x.partition(), x.partitionId()))[1];
            long ty = firstStamp.get(new Incarnation(y.partition(), y.partitionId()))[1];
            if (tx != ty) {
                return Long.compare(tx, ty);
            }
            return Utf8ByteOrder.INSTANCE.compare(x.partitionId(), y.partitionId());
        }

        static long[] cutStamps(Collection<LogRecord> records, long targetBytes) {
            int n = records.size();
            long[] ts = new long[n];
            long[] weight = new long[n];
            long[][] pairs = new long[n][];
            int i = 0;
            for (LogRecord r : records) {
                pairs[i++] = new long[] {r.tsMicros(), r.weight()};
            }
            Arrays.sort(pairs, (a, b) -> Long.compare(a[0], b[0]));
            for (i = 0; i < n; i++) {
                ts[i] = pairs[i][0];
                weight[i] = pairs[i][1];
            }
            long[] cuts = new long[8];
            int cutCount = 0;
            long running = 0;
            for (i = 0; i < n; ) {
                long groupTs = ts[i];
                if (running >= targetBytes) {
                    if (cutCount == cuts.length) {
                        cuts = Arrays.copyOf(cuts, cutCount * 2);
                    }
                    cuts[cutCount++] = groupTs;
                    running = 0;
                }
                while (i < n && ts[i] == groupTs) {
                    running += weight[i++];
                }
            }
            return Arrays.copyOf(cuts, cutCount);
        }

        static long manifestFigures(List<LogRecord> ordered) {
            long minTs = Long.MAX_VALUE;
            long maxTs = Long.MIN_VALUE;
            long partitions = 0;
            String lastName = null;
            for (LogRecord r : ordered) {
                minTs = Math.min(minTs, r.tsMicros());
                maxTs = Math.max(maxTs, r.tsMicros());
                if (!r.partition().equals(lastName)) {
                    partitions++;
                    lastName = r.partition();
                }
            }
            return partitions + minTs + maxTs + ordered.size();
        }

        static Map<String, CheckpointDoc.Position> resumePositions(Iterable<LogRecord> records) {
            Map<String, LogRecord> newest = new HashMap<>();
            for (LogRecord r : records) {
                newest.merge(r.partition(), r, (a, b) -> isNewer(b, a) ? b : a);
            }
            Map<String, CheckpointDoc.Position> positions = new HashMap<>();
            newest.forEach((p, r) -> positions.put(p, new CheckpointDoc.Position(p, r.offset() + 1, r.partitionId())));
            return positions;
        }

        static boolean isNewer(LogRecord candidate, LogRecord current) {
            if (candidate.tsMicros() != current.tsMicros()) {
                return candidate.tsMicros() > current.tsMicros();
            }
            return candidate.offset() > current.offset();
        }
    }
}
