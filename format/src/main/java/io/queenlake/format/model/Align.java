package io.queenlake.format.model;

import java.util.Locale;

/**
 * The boundary no window crosses, and which Hive directories a key carries: {@code hour} and
 * {@code none} give {@code dt=/hour=}, {@code day} gives {@code dt=} only.
 */
public enum Align {
    HOUR("hour"),
    DAY("day"),
    NONE("none");

    private final String wireName;

    Align(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** Whether keys carry an {@code hour=} directory. */
    public boolean hasHourDirectory() {
        return this != DAY;
    }

    public static Align parse(String text) {
        String s = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        for (Align a : values()) {
            if (a.wireName.equals(s)) {
                return a;
            }
        }
        throw new IllegalArgumentException("align '" + text + "' is not one of hour, day, none");
    }
}
