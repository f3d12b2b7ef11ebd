package io.queenlake.connector.window;

import io.queenlake.format.model.LostRange;
import io.queenlake.format.order.Utf8ByteOrder;
import io.queenlake.format.run.RunSlice;
import io.queenlake.format.window.SizeCut;
import io.queenlake.format.window.WindowRuns;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Turns the records of one closed grid window into numbered lake windows, pure: the size cut
 * ({@link SizeCut}'s rule, found over the runs by merging them) into consecutive windows
 * {@code firstK, firstK+1, ...}, each carrying the lost ranges that rode on its records and, per
 * partition incarnation, its oldest record (where a restore reads it again). The result depends on
 * the record set alone, never on arrival order (lost ranges are sorted; the encoder puts the runs
 * in lake order). Runs are cut by stamp with a binary search each: a run's stamps never fall.
 */
final class WindowSlicer {

    private static final Comparator<LostRange> LOST_ORDER = Comparator.comparing(LostRange::partition, Utf8ByteOrder.INSTANCE)
            .thenComparingLong(LostRange::from)
            .thenComparingLong(LostRange::to);

    private WindowSlicer() {}

    /** No size cut: the window is one piece. */
    static final long[] NO_CUTS = new long[0];

    /** Where {@code records} are cut at {@code targetBytes}: {@link SizeCut}'s stamps, none for most windows. */
    static long[] cutStamps(ClosingRuns records, long targetBytes) {
        // No running weight can reach the target: the common case, decided by the weight kept as records came.
        return records.weight() < targetBytes ? NO_CUTS : SizeCut.cutStamps(records.slices(), targetBytes);
    }

    /** One numbered window, and per partition name and incarnation its oldest record with the lost ranges on it. */
    record Sliced(WindowRuns window, Map<String, Map<String, OldestOpen.Oldest>> oldest) {}

    /**
     * @param tStart the window start ({@link WindowRules#tiledStart}): where the queue's last window ended
     * @param tEnd the grid end
     * @param records every record of the window, all stamped in {@code [tStart, tEnd)}
     * @param cuts the stamps where the windows after the first start ({@link #cutStamps}), ascending, inside
     *     {@code (tStart, tEnd)}
     */
    static List<Sliced> slice(String tenant, String queue, long tStart, long tEnd, ClosingRuns records, long firstK,
            long[] cuts) {
        Map<RunSlice, Map<Integer, List<LostRange>>> lostOn = new HashMap<>();
        for (ClosingRuns.Lost l : records.lost()) {
            lostOn.computeIfAbsent(l.slice(), s -> new HashMap<>()).put(l.index(), l.ranges());
        }
        List<Sliced> windows = new ArrayList<>(cuts.length + 1);
        for (int i = 0; i <= cuts.length; i++) {
            long start = i == 0 ? tStart : cuts[i - 1];
            long end = i == cuts.length ? tEnd : cuts[i];
            List<RunSlice> parts = new ArrayList<>(records.slices().size());
            Map<String, Map<String, OldestOpen.Oldest>> oldest = new HashMap<>();
            for (RunSlice slice : records.slices()) {
                int from = i == 0 ? 0 : slice.countAtOrBelow(start - 1);
                int to = i == cuts.length ? slice.size() : slice.countAtOrBelow(end - 1);
                if (from >= to) {
                    continue;
                }
                parts.add(from == 0 && to == slice.size() ? slice : slice.sub(from, to));
                List<LostRange> onFirst = lostOn.getOrDefault(slice, Map.of()).getOrDefault(from, List.of());
                oldest.computeIfAbsent(slice.partition(), p -> new HashMap<>(2))
                        .put(slice.partitionId(), new OldestOpen.Oldest(slice.offset(from), onFirst));
            }
            TreeSet<LostRange> lost = new TreeSet<>(LOST_ORDER);
            for (ClosingRuns.Lost l : records.lost()) {
                if (l.stamp() >= start && l.stamp() < end) {
                    lost.addAll(l.ranges());
                }
            }
            windows.add(new Sliced(new WindowRuns(tenant, queue, firstK + i, start, end, parts, List.copyOf(lost)),
                    oldest));
        }
        return windows;
    }
}
