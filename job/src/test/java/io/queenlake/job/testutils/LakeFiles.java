package io.queenlake.job.testutils;

/** The tests' name for {@link io.queenlake.job.verify.LakeFiles}, which the lake checker reads through. */
public interface LakeFiles extends io.queenlake.job.verify.LakeFiles {}
