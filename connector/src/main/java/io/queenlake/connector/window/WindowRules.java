package io.queenlake.connector.window;

import io.queenlake.format.model.Align;
import io.queenlake.format.model.Micros;
import io.queenlake.format.model.WindowBounds;
import io.queenlake.source.OptionNames;
import io.queenlake.source.QueenOption;
import io.queenlake.source.QueenSourceOptions;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.flink.annotation.Internal;

/**
 * The window grid on the broker clock (docs/ARCHITECTURE.md "Windows"), pure: epoch-aligned tumbling windows
 * of {@link QueenSourceOptions#MAX_WINDOW_MS} whose bounds are whole milliseconds, so a grid window holds
 * exactly the records with {@code tStart*1000 <= ts_us < tEnd*1000}; a window's last millisecond
 * (its Flink timestamp); and where the lake window made of it starts, so that windows tile. The operator only calls these; nothing here reads a clock.
 */
@Internal
public final class WindowRules {

    /** The window size's definition, whose range it checks. */
    private static final QueenOption<Long> WINDOW_SIZE = QueenSourceOptions.MAX_WINDOW_MS;

    private static final long HOUR_MS = Micros.PER_HOUR / 1000;
    private static final long DAY_MS = Micros.PER_DAY / 1000;

    private WindowRules() {}

    /**
     * Refuses a window size that could cross its hour (align=hour) or day (align=day), or lies
     * outside the reference's range, with one sentence naming the options by their Flink keys.
     */
    public static void validate(long sizeMs, Align align) {
        problem(sizeMs, align, OptionNames.KEYS).ifPresent(problem -> {
            throw new IllegalArgumentException(problem);
        });
    }

    /**
     * What is wrong with a window size under an alignment, as one sentence naming the window size
     * and the alignment as {@code names} says (the connector by Flink key, an application by its
     * own variables); empty when the size fits. Names are spelt only for a problem: bounds() asks on
     * every new grid cell.
     */
    public static Optional<String> problem(long sizeMs, Align align, OptionNames names) {
        if (align == null) {
            return Optional.of(names.of(WindowOptions.ALIGN) + " is missing; set it to "
                    + WindowOptions.ALIGN.allowed());
        }
        if (!WINDOW_SIZE.passes(sizeMs)) {
            return Optional.of(names.of(WINDOW_SIZE) + "=" + sizeMs + " is outside " + WINDOW_SIZE.allowed()
                    + "; choose a window size in that range");
        }
        if (align == Align.HOUR && HOUR_MS % sizeMs != 0) {
            return Optional.of(names.of(WINDOW_SIZE) + "=" + sizeMs + " does not divide one hour (" + HOUR_MS
                    + " ms), so a window would cross its hour with " + names.of(WindowOptions.ALIGN)
                    + "=hour; choose a divisor such as 300000 or 600000");
        }
        if (align == Align.DAY && DAY_MS % sizeMs != 0) {
            return Optional.of(names.of(WINDOW_SIZE) + "=" + sizeMs + " does not divide one day (" + DAY_MS
                    + " ms), so a window would cross its day with " + names.of(WindowOptions.ALIGN)
                    + "=day; choose a divisor such as " + HOUR_MS + " or 21600000");
        }
        return Optional.empty();
    }

    /** The grid window holding the stamp {@code tsMicros}; bounds in microseconds, whole milliseconds. */
    public static WindowBounds bounds(long tsMicros, long sizeMs, Align align) {
        validate(sizeMs, align);
        return startingAt(Math.floorDiv(Math.floorDiv(tsMicros, 1000L), sizeMs) * sizeMs * 1000L, sizeMs);
    }

    /**
     * Where a window starts, so that a queue's windows tile the time line: where the window before
     * it ended, unless an alignment boundary lies between that end and the window's first record
     * (then at that boundary, so no window crosses its hour or day); a queue's first window starts
     * at the alignment floor of its first record ({@code align=none}: at that record's stamp).
     *
     * @param previousEnd {@code tEnd} of the queue's window before (or its commit pointer's), if any
     * @param firstTsMicros the stamp of the window's first record
     */
    public static long tiledStart(OptionalLong previousEnd, long firstTsMicros, Align align) {
        long floor = switch (align) {
            case HOUR -> Micros.hourFloor(firstTsMicros);
            case DAY -> Micros.dayFloor(firstTsMicros);
            case NONE -> previousEnd.orElse(firstTsMicros);
        };
        return previousEnd.isPresent() ? Math.max(previousEnd.getAsLong(), floor) : floor;
    }

    /** The grid window starting at {@code tStartMicros} (a value {@link #bounds} returned). */
    public static WindowBounds startingAt(long tStartMicros, long sizeMs) {
        return new WindowBounds(tStartMicros, tStartMicros + sizeMs * 1000L);
    }

    /**
     * The Flink time (ms) of the last millisecond a window can hold a record in: the timestamp a
     * closed window carries downstream.
     */
    public static long lastMillis(WindowBounds bounds) {
        return Math.floorDiv(bounds.tEnd() - 1, 1000L);
    }
}
