package io.queenlake.job.window;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.format.order.Utf8ByteOrder;
import io.queenlake.format.window.SizeCut;
import io.queenlake.format.window.WindowInput;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * Turns the records of one closed grid window into numbered lake windows, pure: the size cut
 * ({@link SizeCut}) into consecutive windows {@code firstK, firstK+1, ...}, each carrying the lost
 * ranges that rode on its records. The result depends on the record set alone, never on arrival
 * order (lost ranges are sorted; lake order of records is the encoder's job).
 */
final class WindowSlicer {

    private static final Comparator<LostRange> LOST_ORDER = Comparator.comparing(LostRange::partition, Utf8ByteOrder.INSTANCE)
            .thenComparingLong(LostRange::from)
            .thenComparingLong(LostRange::to);

    private WindowSlicer() {}

    /**
     * @param tStart the window start ({@link WindowRules#tiledStart}): where the queue's last window ended
     * @param tEnd the grid end
     * @param records every record of the window, all stamped in {@code [tStart, tEnd)}
     */
    static List<WindowInput> slice(
            String tenant, String queue, long tStart, long tEnd, OpenRecords records, long firstK,
            long targetBytes) {
        // The one copy a window's records need (windows hold immutable lists), made first: SizeCut's
        // passes then walk the list every later pass walks, not the holder's read-only view, whose
        // iterator cost a call per record there.
        List<LogRecord> all = List.copyOf(records.records());
        List<SizeCut.Slice> slices = records.weight() < targetBytes
                // No running weight can reach the target: SizeCut would only weigh every payload again to
                // find that out (WindowInput still checks every record lies in the window).
                ? List.of(new SizeCut.Slice(tStart, tEnd, all))
                : SizeCut.cut(tStart, tEnd, all, targetBytes);
        long[] cuts = new long[slices.size() - 1];
        for (int i = 1; i < slices.size(); i++) {
            cuts[i - 1] = slices.get(i).tStart();
        }
        List<TreeSet<LostRange>> lost = new ArrayList<>(slices.size());
        for (int i = 0; i < slices.size(); i++) {
            lost.add(new TreeSet<>(LOST_ORDER));
        }
        records.lost().forEach((r, lostBefore) -> {
            int slot = Arrays.binarySearch(cuts, r.tsMicros());
            lost.get(slot >= 0 ? slot + 1 : -slot - 1).addAll(lostBefore);
        });
        List<WindowInput> windows = new ArrayList<>(slices.size());
        for (int i = 0; i < slices.size(); i++) {
            SizeCut.Slice s = slices.get(i);
            windows.add(new WindowInput(tenant, queue, firstK + i, s.tStart(), s.tEnd(), s.records(),
                    List.copyOf(lost.get(i))));
        }
        return windows;
    }
}
