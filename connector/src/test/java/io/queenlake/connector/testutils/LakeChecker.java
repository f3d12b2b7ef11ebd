package io.queenlake.connector.testutils;

import io.queenlake.format.key.Prefix;
import io.queenlake.format.model.LogRecord;
import java.io.IOException;
import java.util.Collection;

/**
 * The tests' front of {@link io.queenlake.connector.verify.LakeChecker} (the checker behind
 * {@code ./queen-lake verify}): the lake's consistency through {@code committedK}, and every
 * pushed record in it exactly once.
 */
public final class LakeChecker {

    private final io.queenlake.connector.verify.LakeChecker checker;

    public LakeChecker(io.queenlake.connector.verify.LakeFiles files, Prefix prefix) {
        this.checker = new io.queenlake.connector.verify.LakeChecker(files, prefix);
    }

    /** The data prefix of a queue: {@code <prefix>/tenant=<T>/queue=<Q>/}. */
    public String dataPrefix(String tenant, String queue) {
        return checker.dataPrefix(tenant, queue);
    }

    public LakeReport check(String tenant, String queue, long committedK, Collection<LogRecord> expected)
            throws IOException {
        return LakeReport.of(checker.check(tenant, queue, committedK, expected));
    }

    static String sha256(byte[] body) {
        return io.queenlake.connector.verify.LakeChecker.sha256(body);
    }
}
