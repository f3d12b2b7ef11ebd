package io.queenlake.bench.scale;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the bench samples of the running job at every poll, through the REST API, the JVM's own
 * management beans ({@link JvmProbe}) and {@code /proc}: the peaks of its used heap, its heap live
 * after GC and its RSS over the whole run; the source vertex's backpressure and
 * every vertex's busy time (ms a second, its busiest subtask's), the source's watermark lag and the
 * committables waiting in the committer, in the steady state; every checkpoint the
 * history lists, kept by id (the history holds the last ten, polled far more often than ten
 * checkpoints take).
 */
final class JobSamples {

    static final String SOURCE = "source";
    static final String COMMITTER = "committer";
    /** The source reader's watermark behind the broker's clock: records read late close windows late. */
    static final String WATERMARK_LAG = "source watermark lag, ms";
    /** Windows staged and handed to the commit operator, not yet in the lake (the busiest subtask's). */
    static final String PENDING = "windows awaiting commit";
    private static final String SOURCE_WATERMARK_LAG = "Source__Queen_source.QueenSourceReader.watermarkLagMs";
    private static final String COMMITTER_PENDING = "Lake_sink__Commits.windowsAwaitingCommit";

    private final FlinkRest rest;
    private final RunProcess process;
    private final JvmProbe jvm;
    private final String job;
    private final String sourceVertex;
    private final List<FlinkRest.Vertex> vertices;
    private final Map<Long, FlinkRest.Checkpoint> checkpoints = new TreeMap<>();
    private final List<Double> backPressured = new ArrayList<>();
    private final Map<String, List<Double>> busy = new LinkedHashMap<>();
    private final Map<String, List<Double>> gauges = new LinkedHashMap<>();
    private final List<Long> restHeap = new ArrayList<>();
    private long peakHeapBytes = -1;
    private long peakLiveHeapBytes = -1;
    private long heapMaxBytes = -1;
    private long peakRssKiB = -1;

    JobSamples(FlinkRest rest, RunProcess process, JvmProbe jvm, String job, List<FlinkRest.Vertex> vertices,
            String sourceVertex) {
        this.rest = rest;
        this.process = process;
        this.jvm = jvm;
        this.job = job;
        this.vertices = vertices;
        this.sourceVertex = sourceVertex;
    }

    /** One sample; the source's ms a second count only when {@code steady}. */
    void sample(boolean steady) throws IOException, InterruptedException {
        peakHeapBytes = Math.max(peakHeapBytes, jvm.heapUsed());
        peakLiveHeapBytes = Math.max(peakLiveHeapBytes, jvm.heapLiveAfterGc());
        if (heapMaxBytes < 0) {
            heapMaxBytes = jvm.heapMax();
        }
        peakRssKiB = Math.max(peakRssKiB, process.status("VmRSS"));
        for (FlinkRest.Checkpoint c : rest.checkpoints(job)) {
            checkpoints.put(c.id(), c);
        }
        if (steady) {
            restHeap.add(rest.taskManagerMetric("Status.JVM.Memory.Heap.Used"));
            double bp = rest.subtaskMetric(job, sourceVertex, "backPressuredTimeMsPerSecond")[0];
            if (!Double.isNaN(bp)) {
                backPressured.add(bp);
            }
            for (FlinkRest.Vertex v : vertices) {
                String name = shortName(v.name());
                add(busy, name, rest.subtaskMetric(job, v.id(), "busyTimeMsPerSecond")[0]);
                if (name.equals(SOURCE)) {
                    add(gauges, WATERMARK_LAG, rest.subtaskMetric(job, v.id(), SOURCE_WATERMARK_LAG)[0]);
                } else if (name.equals(COMMITTER)) {
                    add(gauges, PENDING, rest.subtaskMetric(job, v.id(), COMMITTER_PENDING)[0]);
                }
            }
        }
    }

    private static void add(Map<String, List<Double>> series, String name, double value) {
        if (!Double.isNaN(value)) {
            series.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
        }
    }

    /** The source's chain is "source", the committer's "committer"; any other vertex keeps its name. */
    static String shortName(String vertex) {
        return vertex.startsWith("Source") ? SOURCE : vertex.contains("Committer") ? COMMITTER : vertex;
    }

    /** Completed checkpoints triggered within [fromMillis, toMillis), their end-to-end durations in ms. */
    List<Double> completedDurations(long fromMillis, long toMillis) {
        return checkpoints.values().stream()
                .filter(c -> c.status().equals("COMPLETED") && c.triggerMillis() >= fromMillis && c.triggerMillis() < toMillis)
                .map(c -> (double) c.durationMs()).toList();
    }

    long failed(long fromMillis, long toMillis) {
        return checkpoints.values().stream()
                .filter(c -> c.status().equals("FAILED") && c.triggerMillis() >= fromMillis && c.triggerMillis() < toMillis)
                .count();
    }

    List<Double> backPressured() {
        return backPressured;
    }

    /** Each vertex's busyTimeMsPerSecond (its busiest subtask's) at every steady poll, by {@link #shortName}. */
    Map<String, List<Double>> busy() {
        return busy;
    }

    /** {@link #WATERMARK_LAG} and {@link #PENDING} at every steady poll. */
    Map<String, List<Double>> gauges() {
        return gauges;
    }

    long peakHeapBytes() {
        return peakHeapBytes;
    }

    long peakLiveHeapBytes() {
        return peakLiveHeapBytes;
    }

    /**
     * Whether the REST API's task metrics stood still through the steady state: the used heap it
     * reports never changed, which a live JVM's does between any two polls. Flink's metric fetcher
     * keeps the last values it got once the task manager's metric dump exceeds the RPC frame size
     * (MetricQueryService drops what does not fit and says so only at DEBUG).
     */
    boolean restMetricsFrozen() {
        return restHeap.size() >= 5 && restHeap.stream().distinct().count() == 1;
    }

    long heapMaxBytes() {
        return heapMaxBytes;
    }

    /** The largest VmRSS sampled and the kernel's own peak (VmHWM), whichever is larger, in KiB. */
    long peakRssKiB() {
        return Math.max(peakRssKiB, process.status("VmHWM"));
    }
}
