package io.queenlake.format.model;

/** A window's interval on the broker clock, {@code [tStart, tEnd)} in microseconds. */
public record WindowBounds(long tStart, long tEnd) {

    public WindowBounds {
        if (tEnd <= tStart) {
            throw new IllegalArgumentException(
                    "window must end after it starts, got tStart=" + tStart + " tEnd=" + tEnd);
        }
    }

    public boolean contains(long tsMicros) {
        return tStart <= tsMicros && tsMicros < tEnd;
    }
}
