package io.queenlake.format.key;

import io.queenlake.format.model.Align;
import io.queenlake.format.model.Micros;
import io.queenlake.format.model.WindowBounds;
import java.util.Objects;

/**
 * The key of one data object, built from named fields (two nearly equal stamps passed by position
 * would make a plausible key for the wrong window, so the window comes as its number and its
 * {@link WindowBounds}, and every other part by name):
 * <pre>{@code
 * DataKey.forWindow(k, bounds).prefix(p).tenant(t).queue(q).align(a).extension(ext).build()
 * }</pre>
 * Renders
 * {@code <prefix>/tenant=<T>/queue=<Q>/dt=YYYY-MM-DD[/hour=HH]/w-<k>-<tStart>-<tEnd>[-p-<P>-<first>-<last>].<ext>},
 * the Hive directories taken from {@code tStart} (UTC).
 */
public final class DataKey {

    /** Digits of the window number. */
    public static final int K_WIDTH = 10;
    /** Digits of a microsecond stamp. */
    public static final int MICROS_WIDTH = 16;
    /** Digits of an offset in a per-partition name. */
    public static final int OFFSET_WIDTH = 12;

    /** The part of a per-partition object's name that names its partition and offsets. */
    public record PartitionSlice(String partition, long firstOffset, long lastOffset) {
        public PartitionSlice {
            Objects.requireNonNull(partition, "partition");
        }
    }

    private final Prefix prefix;
    private final String tenant;
    private final String queue;
    private final Align align;
    private final long k;
    private final WindowBounds bounds;
    private final String extension;
    private final PartitionSlice slice;

    private DataKey(Builder b) {
        this.prefix = Objects.requireNonNull(b.prefix, "prefix");
        this.tenant = Objects.requireNonNull(b.tenant, "tenant");
        this.queue = Objects.requireNonNull(b.queue, "queue");
        this.align = Objects.requireNonNull(b.align, "align");
        this.k = b.k;
        this.bounds = b.bounds;
        this.extension = Objects.requireNonNull(b.extension, "extension");
        this.slice = b.slice;
    }

    /** The key of window {@code k} over {@code bounds}: name its other parts, then {@link Builder#build()}. */
    public static Builder forWindow(long k, WindowBounds bounds) {
        return new Builder(k, Objects.requireNonNull(bounds, "bounds"));
    }

    public String render() {
        StringBuilder sb = new StringBuilder(160);
        sb.append(directory()).append('/').append(fileName());
        return sb.toString();
    }

    /** {@code <prefix>/tenant=<T>/queue=<Q>/dt=.../hour=..}, without a trailing slash. */
    public String directory() {
        Micros.Parts p = Micros.parts(Math.max(bounds.tStart(), 0));
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
                .append('-').append(pad(Math.max(bounds.tStart(), 0), MICROS_WIDTH))
                .append('-').append(pad(Math.max(bounds.tEnd(), 0), MICROS_WIDTH));
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
    public boolean equals(Object o) {
        return o instanceof DataKey other && render().equals(other.render());
    }

    @Override
    public int hashCode() {
        return render().hashCode();
    }

    @Override
    public String toString() {
        return render();
    }

    /** The named parts of a key; all but {@link #slice} are required. */
    public static final class Builder {
        private final long k;
        private final WindowBounds bounds;
        private Prefix prefix;
        private String tenant;
        private String queue;
        private Align align;
        private String extension;
        private PartitionSlice slice;

        private Builder(long k, WindowBounds bounds) {
            this.k = k;
            this.bounds = bounds;
        }

        public Builder prefix(Prefix prefix) {
            this.prefix = prefix;
            return this;
        }

        /** The tenant's name, unescaped. */
        public Builder tenant(String tenant) {
            this.tenant = tenant;
            return this;
        }

        /** The queue's name, unescaped. */
        public Builder queue(String queue) {
            this.queue = queue;
            return this;
        }

        /** Whether the key has an {@code hour=} directory. */
        public Builder align(Align align) {
            this.align = align;
            return this;
        }

        /** The object's extension without the dot, its format's {@code extension()}. */
        public Builder extension(String extension) {
            this.extension = extension;
            return this;
        }

        /** The partition and offsets of a per-partition object; null (the default) for a merged one. */
        public Builder slice(PartitionSlice slice) {
            this.slice = slice;
            return this;
        }

        public DataKey build() {
            return new DataKey(this);
        }
    }
}
