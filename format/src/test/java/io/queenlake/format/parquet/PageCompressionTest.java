package io.queenlake.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.codec.ZstandardCodec;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Hadoop-free page compressors make, page for page, the bytes parquet-java's Hadoop codecs
 * made before them (the codec factory the writer used until 0.1.0), so the lake's Parquet objects
 * stay byte for byte what they were: empty, tiny, compressible, incompressible and page-sized
 * pages, at the pinned zstd level.
 */
class PageCompressionTest {

    private static final int PAGE_BYTES = 1 << 20;

    @ParameterizedTest
    @EnumSource(value = CompressionCodecName.class, names = {"ZSTD", "SNAPPY"})
    void everyPageCompressesToTheBytesOfParquetJavasHadoopCodec(CompressionCodecName codec) throws Exception {
        PlainParquetConfiguration conf = new PlainParquetConfiguration();
        conf.setInt(ZstandardCodec.PARQUET_COMPRESS_ZSTD_LEVEL, 3);
        conf.setInt(ZstandardCodec.PARQUET_COMPRESS_ZSTD_WORKERS, 0);
        CodecFactory hadoop = new CodecFactory(conf, PAGE_BYTES);
        BytesInputCompressor before = hadoop.getCompressor(codec);
        BytesInputCompressor now = new PageCompression(3, PAGE_BYTES).getCompressor(codec);
        try {
            for (byte[] page : pages()) {
                byte[] expected = before.compress(BytesInput.from(page)).toByteArray();
                byte[] actual = now.compress(BytesInput.from(page)).toByteArray();
                assertThat(actual).as("%s page of %s bytes", codec, page.length).isEqualTo(expected);
            }
        } finally {
            hadoop.release();
        }
    }

    private static List<byte[]> pages() {
        Random random = new Random(29);
        List<byte[]> pages = new ArrayList<>();
        pages.add(new byte[0]);
        pages.add(new byte[] {42});
        pages.add("{\"order\":1,\"amount\":\"42.00\"}".getBytes(StandardCharsets.UTF_8));
        StringBuilder json = new StringBuilder();
        while (json.length() < PAGE_BYTES) {
            json.append("{\"order\":").append(random.nextInt(1000)).append(",\"partition\":\"eu-").append(random.nextInt(9))
                    .append("\"}");
        }
        pages.add(json.toString().getBytes(StandardCharsets.UTF_8));
        for (int size : new int[] {100, 4096, 65_536, 300_000, PAGE_BYTES, 3 * PAGE_BYTES}) {
            byte[] noise = new byte[size];
            random.nextBytes(noise);
            pages.add(noise);
        }
        return pages;
    }
}
