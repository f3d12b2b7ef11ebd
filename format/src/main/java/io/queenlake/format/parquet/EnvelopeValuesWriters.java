package io.queenlake.format.parquet;

import static io.queenlake.format.parquet.ParquetEnvelopeSchema.OFFSET;
import static io.queenlake.format.parquet.ParquetEnvelopeSchema.TS;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForLong;
import org.apache.parquet.column.values.factory.DefaultV1ValuesWriterFactory;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;

/**
 * Picks the encoding of each envelope column: DELTA_BINARY_PACKED for
 * {@code offset} and {@code ts}, which climb within a partition; everything else as parquet-java's
 * PARQUET_1_0 writer would, which with the dictionary enabled on {@code partition} only means
 * PLAIN_DICTIONARY there and PLAIN for {@code transaction_id} and {@code payload}.
 */
final class EnvelopeValuesWriters implements ValuesWriterFactory {
    private final DefaultV1ValuesWriterFactory v1 = new DefaultV1ValuesWriterFactory();
    private ParquetProperties properties;

    @Override
    public void initialize(ParquetProperties parquetProperties) {
        this.properties = parquetProperties;
        v1.initialize(parquetProperties);
    }

    @Override
    public ValuesWriter newValuesWriter(ColumnDescriptor descriptor) {
        String column = descriptor.getPath()[0];
        if (column.equals(OFFSET) || column.equals(TS)) {
            return new DeltaBinaryPackingValuesWriterForLong(
                    properties.getInitialSlabSize(), properties.getPageSizeThreshold(), properties.getAllocator());
        }
        return v1.newValuesWriter(descriptor);
    }
}
