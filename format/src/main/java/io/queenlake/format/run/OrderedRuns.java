package io.queenlake.format.run;

import io.queenlake.format.order.Utf8ByteOrder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A closed window's runs in lake order: partition names in UTF-8 byte order; where a name has two
 * incarnations in the window, the older one first (the lower stamp of its first record; equal
 * stamps fall back to the incarnation id in UTF-8 order), as {@code Incarnations} orders records.
 * Each run is already in offset order, so this orders a few runs, never the records.
 *
 * @param slices the runs in lake order
 * @param names the slices {@code [from, to)} of each partition name, names in order
 */
public record OrderedRuns(List<RunSlice> slices, List<NameSpan> names, long records, long minTs, long maxTs) {

    /** The slices {@code [from, to)} of {@link #slices()} that carry the name {@code partition}. */
    public record NameSpan(String partition, int from, int to) {}

    private static final Comparator<RunSlice> OLDER_FIRST = Comparator.comparingLong(RunSlice::firstStamp)
            .thenComparing(RunSlice::partitionId, Utf8ByteOrder.INSTANCE);

    public static OrderedRuns of(Collection<RunSlice> slices) {
        Map<String, List<RunSlice>> byName = new HashMap<>();
        Set<String> incarnations = new HashSet<>();
        long records = 0;
        long minTs = Long.MAX_VALUE;
        long maxTs = Long.MIN_VALUE;
        for (RunSlice s : slices) {
            if (!incarnations.add(s.partition() + "\u0000" + s.partitionId())) {
                throw new IllegalArgumentException("partition '" + s.partition() + "' (incarnation " + s.partitionId()
                        + ") has two runs in one window: one run per incarnation");
            }
            byName.computeIfAbsent(s.partition(), p -> new ArrayList<>(1)).add(s);
            records += s.size();
            minTs = Math.min(minTs, s.firstStamp());
            maxTs = Math.max(maxTs, s.lastStamp());
        }
        List<String> names = new ArrayList<>(byName.keySet());
        names.sort(Utf8ByteOrder.INSTANCE);
        List<RunSlice> ordered = new ArrayList<>(slices.size());
        List<NameSpan> spans = new ArrayList<>(names.size());
        for (String name : names) {
            List<RunSlice> ofName = byName.get(name);
            if (ofName.size() > 1) {
                ofName.sort(OLDER_FIRST);
            }
            int from = ordered.size();
            ordered.addAll(ofName);
            spans.add(new NameSpan(name, from, ordered.size()));
        }
        return new OrderedRuns(List.copyOf(ordered), List.copyOf(spans), records, minTs, maxTs);
    }
}
