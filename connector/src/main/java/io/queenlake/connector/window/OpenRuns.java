package io.queenlake.connector.window;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.format.run.RecordEncoding;
import io.queenlake.format.run.RecordRun;
import io.queenlake.format.run.RunSlice;
import io.queenlake.format.window.SizeCut;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One open window's records, each encoded for the lake's format as it arrives and appended to its
 * partition incarnation's run ({@link RecordRun}): what the window holds is its encoded bytes and a
 * few columns, not an object per record, and closing it concatenates runs instead of sorting and
 * encoding records. The few records that carry lost ranges are noted beside the runs. Task thread
 * only.
 */
final class OpenRuns {

    /** A record that carries lost ranges: its run, its place in the run, its stamp. */
    record LostAt(RecordRun run, int index, long stamp, List<LostRange> ranges) {}

    private final RecordEncoding encoding;
    private final Map<String, RecordRun> runs = new LinkedHashMap<>();
    private final List<LostAt> lost = new ArrayList<>(0);
    /** The run the last record went to: records of one incarnation arrive in runs. */
    private RecordRun recent;
    private int size;
    private long weight;
    private long kept;
    /** Per run, in the order of {@link #runs}, how many of its first records a frontier has passed. */
    private int[] passed = new int[8];
    /** The weight of those records. */
    private long passedWeight;
    /** {@link #passedWeight} when the records it counts last held no size cut; -1 before any look. */
    private long passedWeightWithoutCut = -1;

    OpenRuns(RecordEncoding encoding) {
        this.encoding = encoding;
    }

    /**
     * Encodes and keeps {@code r}, telling {@code onRewritten} when its payload goes in rewritten
     * (the encoding's own check: no second pass over the payload); returns the bytes its run grew by.
     */
    long add(LogRecord r, List<LostRange> lostBefore, Consumer<LogRecord> onRewritten) {
        RecordRun run = recent;
        if (run == null || !run.partitionId().equals(r.partitionId()) || !run.partition().equals(r.partition())) {
            run = runs.computeIfAbsent(r.partition() + '\u0000' + r.partitionId(),
                    key -> encoding.newRun(r.partition(), r.partitionId()));
            recent = run;
        }
        long before = run.bytes();
        if (encoding.append(r, run)) {
            onRewritten.accept(r);
        }
        if (!lostBefore.isEmpty()) {
            lost.add(new LostAt(run, run.size() - 1, r.tsMicros(), List.copyOf(lostBefore)));
        }
        size++;
        weight += r.weight();
        long grew = run.bytes() - before;
        kept += grew;
        return grew;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The records' size-cut weight, in total. */
    long weight() {
        return weight;
    }

    /** The bytes the runs keep, in total. */
    long kept() {
        return kept;
    }

    /**
     * {@link SizeCut}'s stamps among the records stamped at or below {@code frontier}, none while
     * they weigh less than {@code targetBytes}. Those records never change once a frontier passed
     * them, so while no record has passed since a look that found no cut (a queue gone quiet just
     * past the target, its frontier still rising), none is found again without merging the runs.
     */
    long[] cutStampsAtOrBelow(long frontier, long targetBytes) {
        long passed = weightAtOrBelow(frontier);
        if (passed < targetBytes || passed == passedWeightWithoutCut) {
            return WindowSlicer.NO_CUTS;
        }
        long[] cuts = SizeCut.cutStamps(glanceAtOrBelow(frontier), targetBytes);
        if (cuts.length == 0) {
            passedWeightWithoutCut = passed;
        }
        return cuts;
    }

    /**
     * The weight of the records stamped at or below {@code frontier}, found incrementally: a frontier
     * never falls and a record arriving later is stamped above it, so each run's count of passed
     * records only grows and every record is weighed once.
     */
    private long weightAtOrBelow(long frontier) {
        int i = 0;
        for (RecordRun run : runs.values()) {
            if (i == passed.length) {
                passed = Arrays.copyOf(passed, i * 2);
            }
            int n = passed[i];
            while (n < run.size() && run.stamp(n) <= frontier) {
                passedWeight += run.weight(n);
                n++;
            }
            passed[i++] = n;
        }
        return passedWeight;
    }

    /**
     * Each run's records stamped at or below {@code frontier} (runs with none left out), to be read
     * now: the runs stay open ({@link RecordRun#glance}).
     */
    private List<RunSlice> glanceAtOrBelow(long frontier) {
        List<RunSlice> slices = new ArrayList<>(runs.size());
        for (RecordRun run : runs.values()) {
            int n = run.countAtOrBelow(frontier);
            if (n > 0) {
                slices.add(run.glance(n));
            }
        }
        return slices;
    }

    /** The runs, in the order their first record arrived. */
    Iterable<RecordRun> runs() {
        return runs.values();
    }

    /** The lost ranges riding on record {@code index} of {@code run}, empty for most. */
    List<LostRange> lostAt(RecordRun run, int index) {
        for (LostAt at : lost) {
            if (at.run() == run && at.index() == index) {
                return at.ranges();
            }
        }
        return List.of();
    }

    /** The window closes whole: every run sealed into one slice, with the lost ranges riding on records. */
    ClosingRuns close() {
        List<RunSlice> slices = new ArrayList<>(runs.size());
        Map<RecordRun, RunSlice> sliceOf = new HashMap<>();
        for (RecordRun run : runs.values()) {
            RunSlice slice = run.all();
            slices.add(slice);
            sliceOf.put(run, slice);
        }
        List<ClosingRuns.Lost> closingLost = new ArrayList<>(lost.size());
        for (LostAt at : lost) {
            closingLost.add(new ClosingRuns.Lost(sliceOf.get(at.run()), at.index(), at.stamp(), at.ranges()));
        }
        return new ClosingRuns(slices, closingLost, size, weight, kept);
    }

    /**
     * Splits the window at {@code frontier}: the records stamped at or below it close (each run's
     * first records, since a run's stamps never fall), the rest stay open in runs of their own.
     */
    Split closeThrough(long frontier) {
        List<RunSlice> closing = new ArrayList<>();
        Map<RecordRun, RunSlice> closed = new HashMap<>();
        Map<RecordRun, RecordRun> tails = new HashMap<>();
        OpenRuns staying = new OpenRuns(encoding);
        long closingWeight = 0;
        long closingKept = 0;
        int closingSize = 0;
        for (Map.Entry<String, RecordRun> e : runs.entrySet()) {
            RecordRun run = e.getValue();
            int n = run.countAtOrBelow(frontier);
            if (n < run.size()) {
                RecordRun tail = run.tail(n);
                tails.put(run, tail);
                staying.keep(e.getKey(), tail);
            }
            if (n > 0) {
                RunSlice slice = run.slice(0, n);
                closing.add(slice);
                closed.put(run, slice);
                closingWeight += slice.weight();
                closingKept += slice.bytes();
                closingSize += n;
            }
        }
        List<ClosingRuns.Lost> closingLost = new ArrayList<>();
        for (LostAt at : lost) {
            RunSlice slice = closed.get(at.run());
            int n = slice == null ? 0 : slice.size();
            if (at.index() < n) {
                closingLost.add(new ClosingRuns.Lost(slice, at.index(), at.stamp(), at.ranges()));
            } else {
                staying.lost.add(new LostAt(tails.get(at.run()), at.index() - n, at.stamp(), at.ranges()));
            }
        }
        return new Split(new ClosingRuns(closing, closingLost, closingSize, closingWeight, closingKept), staying);
    }

    private void keep(String key, RecordRun run) {
        runs.put(key, run);
        size += run.size();
        kept += run.bytes();
        weight += run.weight();
    }

    /** What {@link #closeThrough} closed and what stays open. */
    record Split(ClosingRuns closing, OpenRuns staying) {}
}
