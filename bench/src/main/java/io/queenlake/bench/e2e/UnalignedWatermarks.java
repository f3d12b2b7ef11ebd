package io.queenlake.bench.e2e;

import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.api.common.eventtime.TimestampAssignerSupplier;
import org.apache.flink.api.common.eventtime.WatermarkAlignmentParams;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkGeneratorSupplier;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;

/**
 * A diagnostic: QueenSource's own watermark strategy with Flink's watermark alignment turned off
 * (the source's split-level pause one window ahead of its reader's watermark stays), to measure
 * what alignment costs a backfill.
 */
final class UnalignedWatermarks<T> implements WatermarkStrategy<T> {

    private final WatermarkStrategy<T> aligned;

    UnalignedWatermarks(WatermarkStrategy<T> aligned) {
        this.aligned = aligned;
    }

    @Override
    public WatermarkGenerator<T> createWatermarkGenerator(WatermarkGeneratorSupplier.Context context) {
        return aligned.createWatermarkGenerator(context);
    }

    @Override
    public TimestampAssigner<T> createTimestampAssigner(TimestampAssignerSupplier.Context context) {
        return aligned.createTimestampAssigner(context);
    }

    @Override
    public WatermarkAlignmentParams getAlignmentParameters() {
        return WatermarkAlignmentParams.WATERMARK_ALIGNMENT_DISABLED;
    }
}
