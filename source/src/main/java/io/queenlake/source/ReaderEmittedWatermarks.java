package io.queenlake.source;

import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;

/**
 * Generates nothing: QueenSource's reader emits broker-time watermarks on its main output from
 * the frontier, and no record or timer may produce any other.
 */
final class ReaderEmittedWatermarks implements WatermarkGenerator<QueueEvent> {

    @Override
    public void onEvent(QueueEvent event, long eventTimestamp, WatermarkOutput output) {}

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {}
}
