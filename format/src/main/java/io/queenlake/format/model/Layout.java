package io.queenlake.format.model;

import java.util.Locale;

/** How a window's records are split into objects: one object, or one per partition. */
public enum Layout {
    MERGED("merged"),
    PER_PARTITION("per-partition");

    private final String wireName;

    Layout(String wireName) {
        this.wireName = wireName;
    }

    /** The name in manifests, intents and settings. */
    public String wireName() {
        return wireName;
    }

    public static Layout parse(String text) {
        String s = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        for (Layout l : values()) {
            if (l.wireName.equals(s)) {
                return l;
            }
        }
        throw new IllegalArgumentException("layout '" + text + "' is not one of merged, per-partition");
    }
}
