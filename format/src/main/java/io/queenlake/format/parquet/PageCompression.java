package io.queenlake.format.parquet;

import com.github.luben.zstd.RecyclingBufferPool;
import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * The page compressors of the lake's Parquet objects, without Hadoop: parquet-java's own
 * {@code CodecFactory} reaches its codecs through Hadoop's {@code CompressionCodec} and
 * {@code Configuration}, which would put Hadoop on every task manager's class path for two
 * compressors. These make the same bytes the Hadoop codecs make ({@code PageCompressionTest}
 * compares them page by page): zstd as {@code ZstandardCodec} streams a page (one zstd-jni stream
 * at the level, no workers, flushed and then closed), snappy as {@code SnappyCodec} does (the whole
 * page in one raw block). Only writing is Hadoop-free: {@code ParquetObjectReader} reads with
 * parquet-java's reader, which needs Hadoop ({@code verify}, the tests), as a cluster run does not.
 */
final class PageCompression implements CompressionCodecFactory {

    private final int zstdLevel;
    private final int pageBytes;

    PageCompression(int zstdLevel, int pageBytes) {
        this.zstdLevel = zstdLevel;
        this.pageBytes = pageBytes;
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        return switch (codec) {
            case ZSTD -> new ZstdPages(zstdLevel, pageBytes);
            case SNAPPY -> new SnappyPages();
            default -> throw new IllegalArgumentException("the lake's Parquet objects are zstd or snappy, not " + codec);
        };
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        throw new UnsupportedOperationException("the lake's Parquet writer compresses only; ParquetObjectReader reads");
    }

    @Override
    public void release() {
        // Nothing pooled beyond zstd-jni's own buffer pool.
    }

    /** A page as {@code ZstandardCodec}'s stream writes it (HeapBytesCompressor: write, finish, close). */
    private static final class ZstdPages implements BytesInputCompressor {

        private final int level;
        private final ByteArrayOutputStream out;

        ZstdPages(int level, int pageBytes) {
            this.level = level;
            this.out = new ByteArrayOutputStream(pageBytes);
        }

        @Override
        public BytesInput compress(BytesInput bytes) throws IOException {
            out.reset();
            try (ZstdOutputStream zstd = new ZstdOutputStream(out, RecyclingBufferPool.INSTANCE)) {
                zstd.setLevel(level);
                zstd.setWorkers(0);
                bytes.writeAllTo(zstd);
                // ZstdCompressorStream.close() flushes before it closes: a flush block ends the data.
                zstd.flush();
            }
            return BytesInput.from(out);
        }

        @Override
        public CompressionCodecName getCodecName() {
            return CompressionCodecName.ZSTD;
        }

        @Override
        public void release() {
        }
    }

    /** A page as {@code SnappyCodec}'s non-blocked stream writes it: one raw snappy block of the whole page. */
    private static final class SnappyPages implements BytesInputCompressor {

        @Override
        public BytesInput compress(BytesInput bytes) throws IOException {
            // The Hadoop stream writes nothing for no input, where a raw block would hold its length.
            return bytes.size() == 0 ? BytesInput.empty() : BytesInput.from(Snappy.compress(bytes.toByteArray()));
        }

        @Override
        public CompressionCodecName getCodecName() {
            return CompressionCodecName.SNAPPY;
        }

        @Override
        public void release() {
        }
    }
}
