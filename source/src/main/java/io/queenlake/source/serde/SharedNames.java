package io.queenlake.source.serde;

/**
 * Hands out one {@link String} instance per queue, partition and incarnation name read from the
 * wire, so the records a window buffers share their names instead of each holding copies: less
 * state in the heap, and the per-record name comparisons downstream (grouping into incarnations,
 * lake order, the encoder's cached partition) end at the identity check. A fixed table of slots
 * indexed by hash, racy on purpose: a slot read by one task while another writes it yields either
 * string, both immutable, and a name is only replaced by an equal one; a miss costs nothing but the
 * sharing.
 */
final class SharedNames {

    private static final int SLOTS = 4096;

    private final String[] slots = new String[SLOTS];

    String share(String name) {
        int slot = name.hashCode() & (SLOTS - 1);
        String known = slots[slot];
        if (name.equals(known)) {
            return known;
        }
        slots[slot] = name;
        return name;
    }
}
