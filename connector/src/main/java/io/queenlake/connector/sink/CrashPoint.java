package io.queenlake.connector.sink;

import org.apache.flink.annotation.Internal;

/**
 * Each step of the sink's commit sequence where a test may kill the job, in the order a window
 * passes them. Flink's own recovery must then produce the same lake as a run without the crash.
 */
@Internal
public enum CrashPoint {
    /** The writer received a closed window and has staged nothing of it yet. */
    AFTER_WINDOW_FIRES_BEFORE_STAGING,
    /** The writer wrote part of an object's bytes to its staging stream. */
    MID_STAGING,
    /** prepareCommit handed the window's committable on; the checkpoint has not completed. */
    AFTER_PREPARE_COMMIT,
    /** The checkpoint completed; first thing in the committer, before any object is published. */
    AFTER_CHECKPOINT_BEFORE_COMMIT,
    /** The window's intent is in KV; none of its objects is published yet. */
    AFTER_INTENT,
    /** The window's objects are published; its manifest is not written yet. */
    BETWEEN_OBJECTS_AND_MANIFEST,
    /** The manifest is written; the KV pointer has not moved (nor, with a catalog, the Iceberg table). */
    BETWEEN_MANIFEST_AND_POINTER,
    /** With a catalog: the window is appended to the Iceberg table; the KV pointer has not moved. */
    BETWEEN_TABLE_AND_POINTER,
    /** The KV pointer moved to the window (its checkpoint object, if any, is not written yet). */
    AFTER_POINTER
}
