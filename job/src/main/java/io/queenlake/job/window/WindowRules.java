package io.queenlake.job.window;

import io.queenlake.format.model.Align;
import io.queenlake.format.model.Micros;
import io.queenlake.format.model.WindowBounds;

/**
 * The window grid on the broker clock (DESIGN.md "Windows"), pure: epoch-aligned tumbling windows
 * of {@code QUEEN_S3_MAX_WINDOW_MS} whose bounds are whole milliseconds, so a window holds exactly
 * the records with {@code tStart*1000 <= ts_us < tEnd*1000}; and when a broker-time watermark
 * closes one. The operator only calls these; nothing here reads a clock.
 */
public final class WindowRules {

    /** The setting every refusal names. */
    public static final String MAX_WINDOW_SETTING = "QUEEN_S3_MAX_WINDOW_MS";
    /** The reference sink's range for {@value #MAX_WINDOW_SETTING}. */
    public static final long MIN_WINDOW_MS = 100;
    public static final long MAX_WINDOW_MS = 86_400_000;

    private static final long HOUR_MS = Micros.PER_HOUR / 1000;
    private static final long DAY_MS = Micros.PER_DAY / 1000;

    private WindowRules() {}

    /**
     * Refuses a window size that could cross its hour (align=hour) or day (align=day), or lies
     * outside the reference's range, with one sentence naming {@value #MAX_WINDOW_SETTING}.
     */
    public static void validate(long sizeMs, Align align) {
        if (align == null) {
            throw new IllegalArgumentException("QUEEN_S3_ALIGN is missing; set it to hour, day or none");
        }
        if (sizeMs < MIN_WINDOW_MS || sizeMs > MAX_WINDOW_MS) {
            throw new IllegalArgumentException(MAX_WINDOW_SETTING + "=" + sizeMs + " is outside " + MIN_WINDOW_MS
                    + ".." + MAX_WINDOW_MS + "; choose a window size in that range");
        }
        if (align == Align.HOUR && HOUR_MS % sizeMs != 0) {
            throw new IllegalArgumentException(MAX_WINDOW_SETTING + "=" + sizeMs
                    + " does not divide one hour (3600000 ms), so a window would cross its hour with"
                    + " QUEEN_S3_ALIGN=hour; choose a divisor such as 300000 or 600000");
        }
        if (align == Align.DAY && DAY_MS % sizeMs != 0) {
            throw new IllegalArgumentException(MAX_WINDOW_SETTING + "=" + sizeMs
                    + " does not divide one day (86400000 ms), so a window would cross its day with"
                    + " QUEEN_S3_ALIGN=day; choose a divisor such as 3600000 or 21600000");
        }
    }

    /** The grid window holding the stamp {@code tsMicros}; bounds in microseconds, whole milliseconds. */
    public static WindowBounds bounds(long tsMicros, long sizeMs, Align align) {
        validate(sizeMs, align);
        return startingAt(Math.floorDiv(Math.floorDiv(tsMicros, 1000L), sizeMs) * sizeMs * 1000L, sizeMs);
    }

    /** The grid window starting at {@code tStartMicros} (a value {@link #bounds} returned). */
    public static WindowBounds startingAt(long tStartMicros, long sizeMs) {
        return new WindowBounds(tStartMicros, tStartMicros + sizeMs * 1000L);
    }

    /**
     * The Flink time (ms) of the last millisecond a window can hold a record in: a watermark at or
     * past it promises no record below {@code tEnd} is still to come.
     */
    public static long lastMillis(WindowBounds bounds) {
        return Math.floorDiv(bounds.tEnd() - 1, 1000L);
    }

    /** Whether the broker-time watermark {@code watermarkMs} closes the window. */
    public static boolean closes(WindowBounds bounds, long watermarkMs) {
        return watermarkMs >= lastMillis(bounds);
    }

    /** Whether a record stamped {@code tsMicros} breaks the promise of the watermark {@code watermarkMs}. */
    public static boolean isLate(long tsMicros, long watermarkMs) {
        return Math.floorDiv(tsMicros, 1000L) <= watermarkMs;
    }
}
