package io.queenlake.format.order;

import io.queenlake.format.model.LogRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A window's records grouped per partition incarnation in a single pass, with each group's
 * aggregates (first stamp, newest record, stamp range). It owns the lake order: names are ranked
 * once in UTF-8 byte order, incarnations of one name once (older first), and each group is
 * already in offset order as records of one incarnation arrive (sorted, stably, only when not),
 * so no comparison of names happens per record.
 *
 * <p>Records of one incarnation reach a window in runs, so a record is first matched against the
 * previous record's group and only looked up by name when it starts a new run.
 */
public final class Incarnations {

    private static final Comparator<Group> OLDER_FIRST = Comparator.<Group>comparingLong(g -> g.firstStamp)
            .thenComparing(g -> g.partitionId, Utf8ByteOrder.INSTANCE);
    private static final Comparator<LogRecord> BY_OFFSET = Comparator.comparingLong(LogRecord::offset);

    /** Every incarnation's group, in the order each was first seen. */
    private final List<Group> groups;
    /** The first-seen group of each name; its later incarnations hang off {@link Group#nextOfName}. */
    private final List<Group> firstOfName;
    private final int size;

    private Incarnations(List<Group> groups, List<Group> firstOfName, int size) {
        this.groups = groups;
        this.firstOfName = firstOfName;
        this.size = size;
    }

    public static Incarnations of(Collection<LogRecord> records) {
        Map<String, Group> byName = new HashMap<>();
        List<Group> groups = new ArrayList<>();
        List<Group> firstOfName = new ArrayList<>();
        Group current = null;
        for (LogRecord r : records) {
            if (current == null || !current.holds(r)) {
                current = groupOf(r, byName, groups, firstOfName);
            }
            current.add(r);
        }
        return new Incarnations(groups, firstOfName, records.size());
    }

    private static Group groupOf(LogRecord r, Map<String, Group> byName, List<Group> groups, List<Group> firstOfName) {
        Group first = byName.get(r.partition());
        Group last = null;
        for (Group g = first; g != null; g = g.nextOfName) {
            if (g.partitionId.equals(r.partitionId())) {
                return g;
            }
            last = g;
        }
        Group created = new Group(r.partition(), r.partitionId());
        groups.add(created);
        if (last == null) {
            byName.put(r.partition(), created);
            firstOfName.add(created);
        } else {
            last.nextOfName = created;
        }
        return created;
    }

    /** Every incarnation of the window, in the order each was first seen. */
    public List<Incarnation> all() {
        List<Incarnation> all = new ArrayList<>(groups.size());
        for (Group g : groups) {
            all.add(new Incarnation(g.partition, g.partitionId, g.size, g.firstStamp, g.newest));
        }
        return all;
    }

    /**
     * The records in lake order: partition name in UTF-8 byte order; where one name has two
     * incarnations, the older one first (lower first stamp; equal stamps fall back to the
     * incarnation id in UTF-8 order); then offset, records of equal offset keeping their arrival
     * order. The result never depends on how incarnations interleaved on arrival.
     */
    public OrderedRecords inLakeOrder() {
        List<Group> names = new ArrayList<>(firstOfName);
        names.sort(Comparator.comparing(g -> g.partition, Utf8ByteOrder.INSTANCE));
        LogRecord[] ordered = new LogRecord[size];
        List<OrderedRecords.PartitionSpan> spans = new ArrayList<>(names.size());
        long minTs = Long.MAX_VALUE;
        long maxTs = Long.MIN_VALUE;
        int at = 0;
        for (Group first : names) {
            int from = at;
            for (Group g : incarnationsOf(first)) {
                g.sortByOffset();
                System.arraycopy(g.records, 0, ordered, at, g.size);
                at += g.size;
                minTs = Math.min(minTs, g.minTs);
                maxTs = Math.max(maxTs, g.maxTs);
            }
            spans.add(new OrderedRecords.PartitionSpan(first.partition, from, at));
        }
        return new OrderedRecords(Collections.unmodifiableList(Arrays.asList(ordered)),
                Collections.unmodifiableList(spans), minTs, maxTs);
    }

    private static List<Group> incarnationsOf(Group first) {
        if (first.nextOfName == null) {
            return List.of(first);
        }
        List<Group> all = new ArrayList<>();
        for (Group g = first; g != null; g = g.nextOfName) {
            all.add(g);
        }
        all.sort(OLDER_FIRST);
        return all;
    }

    /** One incarnation's records in arrival order and its aggregates, built record by record. */
    private static final class Group {
        final String partition;
        final String partitionId;
        Group nextOfName;
        LogRecord[] records = new LogRecord[16];
        int size;
        boolean inOffsetOrder = true;
        long firstOffset = Long.MAX_VALUE;
        long firstStamp = Long.MAX_VALUE;
        LogRecord newest;
        long minTs = Long.MAX_VALUE;
        long maxTs = Long.MIN_VALUE;

        Group(String partition, String partitionId) {
            this.partition = partition;
            this.partitionId = partitionId;
        }

        boolean holds(LogRecord r) {
            return partition.equals(r.partition()) && partitionId.equals(r.partitionId());
        }

        void add(LogRecord r) {
            long offset = r.offset();
            long ts = r.tsMicros();
            if (size == records.length) {
                records = Arrays.copyOf(records, size * 2);
            }
            if (size > 0 && offset < records[size - 1].offset()) {
                inOffsetOrder = false;
            }
            records[size++] = r;
            if (offset < firstOffset || (offset == firstOffset && ts < firstStamp)) {
                firstOffset = offset;
                firstStamp = ts;
            }
            if (newest == null || ts > newest.tsMicros() || (ts == newest.tsMicros() && offset > newest.offset())) {
                newest = r;
            }
            minTs = Math.min(minTs, ts);
            maxTs = Math.max(maxTs, ts);
        }

        void sortByOffset() {
            if (!inOffsetOrder) {
                Arrays.sort(records, 0, size, BY_OFFSET); // stable: equal offsets keep their arrival order
                inOffsetOrder = true;
            }
        }
    }
}
