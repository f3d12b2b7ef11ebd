package io.queenlake.format.order;

import io.queenlake.format.model.LogRecord;

/**
 * What one partition incarnation contributed to a window.
 *
 * @param firstStamp the stamp of its lowest-offset record (the lowest stamp among equal lowest
 *     offsets): how the lake order tells an older incarnation of a name from a newer one
 * @param newest its record with the highest stamp, then the highest offset (the first seen among
 *     records equal in both)
 */
public record Incarnation(String partition, String partitionId, int records, long firstStamp, LogRecord newest) {}
