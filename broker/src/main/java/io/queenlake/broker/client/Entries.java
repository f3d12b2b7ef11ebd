package io.queenlake.broker.client;

import java.util.Objects;

/** The rule every batched route shares: answer entry i is the answer to request entry i. */
final class Entries {

    private Entries() {}

    static void requireAligned(int asked, int answered) {
        if (asked != answered) {
            throw new EntryMismatchException("asked " + asked + " entries, got " + answered);
        }
    }

    static void requireSame(int index, String field, String asked, String answered) {
        if (!Objects.equals(asked, answered)) {
            throw new EntryMismatchException(
                    "entry " + index + " has " + field + " '" + answered + "' where '" + asked + "' was asked");
        }
    }
}
