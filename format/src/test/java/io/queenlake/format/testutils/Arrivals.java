package io.queenlake.format.testutils;

import io.queenlake.format.model.LogRecord;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random arrival orders a window can see: partitions interleaved at random, each partition still
 * in offset order (how records reach a window from parallel readers).
 */
public final class Arrivals {

    private Arrivals() {}

    public static List<LogRecord> interleave(List<LogRecord> records, Random random) {
        Map<String, Deque<LogRecord>> lanes = new LinkedHashMap<>();
        List<LogRecord> byOffset = new ArrayList<>(records);
        byOffset.sort(Comparator.comparingLong(LogRecord::offset));
        for (LogRecord r : byOffset) {
            lanes.computeIfAbsent(r.partition() + "\u0000" + r.partitionId(), k -> new ArrayDeque<>()).add(r);
        }
        List<Deque<LogRecord>> open = new ArrayList<>(lanes.values());
        java.util.Collections.shuffle(open, random);
        List<LogRecord> out = new ArrayList<>(records.size());
        while (!open.isEmpty()) {
            int i = random.nextInt(open.size());
            Deque<LogRecord> lane = open.get(i);
            int take = 1 + random.nextInt(3);
            for (int k = 0; k < take && !lane.isEmpty(); k++) {
                out.add(lane.poll());
            }
            if (lane.isEmpty()) {
                open.remove(i);
            }
        }
        return out;
    }
}
