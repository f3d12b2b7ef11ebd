package io.queenlake.connector.testutils;

/** The tests' name for {@link io.queenlake.connector.verify.LakeFiles}, which the lake checker reads through. */
public interface LakeFiles extends io.queenlake.connector.verify.LakeFiles {}
