package io.queenlake.bench.scale;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the bench samples of the running job at every poll, through the REST API and {@code /proc}:
 * the peaks of its JVM's heap and RSS over the whole run; the source vertex's backpressure and
 * every vertex's busy time (ms a second, its busiest subtask's) in the steady state; every checkpoint the
 * history lists, kept by id (the history holds the last ten, polled far more often than ten
 * checkpoints take).
 */
final class JobSamples {

    private final FlinkRest rest;
    private final RunProcess process;
    private final String job;
    private final String sourceVertex;
    private final List<FlinkRest.Vertex> vertices;
    private final Map<Long, FlinkRest.Checkpoint> checkpoints = new TreeMap<>();
    private final List<Double> backPressured = new ArrayList<>();
    private final Map<String, List<Double>> busy = new LinkedHashMap<>();
    private long peakHeapBytes = -1;
    private long heapMaxBytes = -1;
    private long peakRssKiB = -1;

    JobSamples(FlinkRest rest, RunProcess process, String job, List<FlinkRest.Vertex> vertices, String sourceVertex) {
        this.rest = rest;
        this.process = process;
        this.job = job;
        this.vertices = vertices;
        this.sourceVertex = sourceVertex;
    }

    /** One sample; the source's ms a second count only when {@code steady}. */
    void sample(boolean steady) throws IOException, InterruptedException {
        peakHeapBytes = Math.max(peakHeapBytes, rest.taskManagerMetric("Status.JVM.Memory.Heap.Used"));
        if (heapMaxBytes < 0) {
            heapMaxBytes = rest.taskManagerMetric("Status.JVM.Memory.Heap.Max");
        }
        peakRssKiB = Math.max(peakRssKiB, process.status("VmRSS"));
        for (FlinkRest.Checkpoint c : rest.checkpoints(job)) {
            checkpoints.put(c.id(), c);
        }
        if (steady) {
            double bp = rest.subtaskMetric(job, sourceVertex, "backPressuredTimeMsPerSecond")[0];
            if (!Double.isNaN(bp)) {
                backPressured.add(bp);
            }
            for (FlinkRest.Vertex v : vertices) {
                double b = rest.subtaskMetric(job, v.id(), "busyTimeMsPerSecond")[0];
                if (!Double.isNaN(b)) {
                    busy.computeIfAbsent(v.name(), n -> new ArrayList<>()).add(b);
                }
            }
        }
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

    /** Each vertex's busyTimeMsPerSecond (its busiest subtask's) at every steady poll, by the vertex's name. */
    Map<String, List<Double>> busy() {
        return busy;
    }

    long peakHeapBytes() {
        return peakHeapBytes;
    }

    long heapMaxBytes() {
        return heapMaxBytes;
    }

    /** The largest VmRSS sampled and the kernel's own peak (VmHWM), whichever is larger, in KiB. */
    long peakRssKiB() {
        return Math.max(peakRssKiB, process.status("VmHWM"));
    }
}
