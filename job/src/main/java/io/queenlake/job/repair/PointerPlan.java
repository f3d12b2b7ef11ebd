package io.queenlake.job.repair;

import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.model.Micros;

/**
 * What to do with a queue's commit pointer given what the lake proves ({@link Proof}): write the
 * proven pointer when the stored one is absent or behind (with {@code expect} = the version read,
 * {@code 0} when absent), nothing when it already names the proven window, and refuse when it is
 * ahead of the proof or names another window at the same {@code k}: a pointer never goes back, and
 * one this command cannot explain is not overwritten. Pure; each plan words its one line.
 */
public sealed interface PointerPlan {

    /** The line that says what was found and what is done. */
    String line();

    /** Move the pointer to {@code next}, only if it is still at {@code expected}'s version. */
    record Write(ObservedPointer expected, Committed next, String line) implements PointerPlan {}

    /** The pointer already names the proven window: nothing to write. */
    record UpToDate(String line) implements PointerPlan {}

    /** Nothing can or may be written: the pointer is ahead, names another window, or nothing is proven. */
    record Refuse(String line) implements PointerPlan {}

    static PointerPlan of(Proof proof, ObservedPointer observed, String pointerKey, String queue) {
        if (observed.pointer().isEmpty()) {
            return proof.pointer().<PointerPlan>map(next -> new Write(observed, next,
                    "the commit pointer " + pointerKey + " is absent; writing " + describe(next)))
                    .orElseGet(() -> new Refuse("the commit pointer " + pointerKey
                            + " is absent and the lake proves no window, so there is nothing to write"));
        }
        Committed now = observed.pointer().get();
        String at = "the commit pointer " + pointerKey + " is at k=" + now.k() + " (tEnd " + Micros.render(now.tEnd())
                + ", manifest " + now.manifest() + ")";
        if (now.k() > proof.k()) {
            return new Refuse(at + ", ahead of " + (proof.k() == 0 ? "the lake, which proves no window" : "k=" + proof.k()
                    + ", the last window the lake proves") + ": a commit pointer never goes back, so nothing is written;"
                    + " ./queen-lake verify --queue " + queue + " lists what the lake lacks");
        }
        Committed next = proof.pointer().orElseThrow();
        if (now.k() == next.k()) {
            if (now.tEnd() == next.tEnd() && now.manifest().equals(next.manifest())) {
                return new UpToDate("the commit pointer " + pointerKey + " is already at k=" + now.k()
                        + " with manifest " + now.manifest() + ": nothing to write");
            }
            return new Refuse(at + ", where the lake's window " + next.k() + " is " + describe(next)
                    + ": it names another window at the same k, so nothing is written; check that the job and this"
                    + " command read the same bucket, prefix and tenant");
        }
        return new Write(observed, next, at + ", behind the lake; writing " + describe(next));
    }

    /** {@code k=21 tEnd=... manifest=... (records=.., bytes=..)}. */
    static String describe(Committed c) {
        return "k=" + c.k() + " tEnd=" + Micros.render(c.tEnd()) + " manifest=" + c.manifest() + " (records=" + c.records()
                + ", bytes=" + c.bytes() + ")";
    }
}
