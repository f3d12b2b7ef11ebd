package io.queenlake.connector.sink;

import java.io.Serializable;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.annotation.Internal;

/**
 * A test hook that throws once, at one {@link CrashPoint}, the first time a window numbered at
 * least {@code fromK} passes it. "Once" is per JVM and per {@code testId} (a static one-shot
 * latch), so Flink's recovery of a MiniCluster job runs through the same point unharmed. Never
 * set in production: the builder leaves it out unless a test asks for it.
 */
@Internal
public record CrashHook(CrashPoint point, long fromK, String testId) implements Serializable {

    private static final long serialVersionUID = 1L;

    private static final Set<String> FIRED = ConcurrentHashMap.newKeySet();

    public CrashHook {
        Objects.requireNonNull(point, "point");
        Objects.requireNonNull(testId, "testId");
    }

    /** Throws {@link InjectedCrash} if this is the armed point, {@code k} is reached, and it has not fired yet. */
    public void at(CrashPoint reached, long k) {
        if (reached == point && k >= fromK && FIRED.add(testId)) {
            throw new InjectedCrash(point, k);
        }
    }

    /** Whether the hook has fired in this JVM. */
    public boolean fired() {
        return FIRED.contains(testId);
    }

    /** The failure the hook throws; the job's restart strategy brings it back. */
    public static final class InjectedCrash extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InjectedCrash(CrashPoint point, long k) {
            super("injected crash at " + point + " (window k=" + k + "), a test hook: Flink recovers from it");
        }
    }
}
