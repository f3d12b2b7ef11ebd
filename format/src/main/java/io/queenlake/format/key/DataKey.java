package io.queenlake.format.key;

import io.queenlake.format.model.Align;
import io.queenlake.format.model.Micros;

/**
 * The key of one data object, built from named fields (two nearly equal stamps passed by position
 * would make a plausible key for the wrong window). Renders
 * {@code <prefix>/tenant=<T>/queue=<Q>/dt=YYYY-MM-DD[/hour=HH]/w-<k>-<tStart>-<tEnd>[-p-<P>-<first>-<last>].<ext>},
 * the Hive directories taken from {@code tStart} (UTC).
 *
 * @param slice the partition and offsets of a per-partition object, or null for a merged object
 */
public record DataKey(
        Prefix prefix,
        String tenant,
        String queue,
        Align align,
        long k,
        long tStart,
        long tEnd,
        String extension,
        PartitionSlice slice) {

    /** Digits of the window number. */
    public static final int K_WIDTH = 10;
    /** Digits of a microsecond stamp. */
    public static final int MICROS_WIDTH = 16;
    /** Digits of an offset in a per-partition name. */
    public static final int OFFSET_WIDTH = 12;

    /** The part of a per-partition object's name that names its partition and offsets. */
    public record PartitionSlice(String partition, long firstOffset, long lastOffset) {
        public PartitionSlice {
            java.util.Objects.requireNonNull(partition, "partition");
        }
    }

    public DataKey {
        java.util.Objects.requireNonNull(prefix, "prefix");
        java.util.Objects.requireNonNull(tenant, "tenant");
        java.util.Objects.requireNonNull(queue, "queue");
        java.util.Objects.requireNonNull(align, "align");
        java.util.Objects.requireNonNull(extension, "extension");
    }

    public String render() {
        StringBuilder sb = new StringBuilder(160);
        sb.append(directory()).append('/').append(fileName());
        return sb.toString();
    }

    /** {@code <prefix>/tenant=<T>/queue=<Q>/dt=.../hour=..}, without a trailing slash. */
    public String directory() {
        Micros.Parts p = Micros.parts(Math.max(tStart, 0));
        StringBuilder sb = new StringBuilder(120);
        sb.append(prefix.value())
                .append("/tenant=").append(NameEscaping.escape(tenant))
                .append("/queue=").append(NameEscaping.escape(queue))
                .append("/dt=").append(pad(p.year(), 4)).append('-').append(pad(p.month(), 2))
                .append('-').append(pad(p.day(), 2));
        if (align.hasHourDirectory()) {
            sb.append("/hour=").append(pad(p.hour(), 2));
        }
        return sb.toString();
    }

    public String fileName() {
        StringBuilder sb = new StringBuilder(96);
        sb.append("w-").append(pad(Math.max(k, 0), K_WIDTH))
                .append('-').append(pad(Math.max(tStart, 0), MICROS_WIDTH))
                .append('-').append(pad(Math.max(tEnd, 0), MICROS_WIDTH));
        if (slice != null) {
            sb.append("-p-").append(NameEscaping.escape(slice.partition()))
                    .append('-').append(pad(Math.max(slice.firstOffset(), 0), OFFSET_WIDTH))
                    .append('-').append(pad(Math.max(slice.lastOffset(), 0), OFFSET_WIDTH));
        }
        return sb.append('.').append(extension).toString();
    }

    static String pad(long value, int width) {
        String digits = Long.toString(value);
        if (digits.length() >= width) {
            return digits;
        }
        return "0".repeat(width - digits.length()) + digits;
    }

    @Override
    public String toString() {
        return render();
    }
}
