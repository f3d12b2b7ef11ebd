package io.queenlake.bench.e2e;

import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The part files a run's FileSink writers finished, each with the records it holds, as the writers
 * counted them ({@link CountingPartWriters}): in this JVM (the MiniCluster runs in the benchmark's),
 * by run. With the bucket's listing this says how many records are committed without opening a part.
 */
final class FinishedParts {

    /**
     * One finished part: its FileSink bucket (the folder it lands in), its size in bytes (what the
     * stream held at {@code finish()}, the object's size once committed) and its records.
     */
    record Part(String bucketId, long bytes, long records) {}

    private static final Map<String, Queue<Part>> BY_RUN = new ConcurrentHashMap<>();

    private FinishedParts() {}

    static void add(String run, Part part) {
        BY_RUN.computeIfAbsent(run, r -> new ConcurrentLinkedQueue<>()).add(part);
    }

    static List<Part> of(String run) {
        Queue<Part> parts = BY_RUN.get(run);
        return parts == null ? List.of() : List.copyOf(parts);
    }
}
