package io.queenlake.format.parquet;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.PageEncodingStats;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;

/**
 * Pins the footer: replaces its {@code created_by} and sorts what parquet-java leaves in hash-set
 * order. parquet-java 1.15 always writes its own build string
 * there ("parquet-mr version 1.15.2 (build ...)"), which would make object bytes change with a
 * library upgrade that changes nothing else; the contract wants a fixed name. The footer is the
 * last thing in a file and every offset in it points before it, so swapping it leaves the rest of
 * the file valid byte for byte.
 */
final class FooterStamp {
    private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

    private FooterStamp() {}

    /**
     * @param tail the last bytes of a Parquet file, containing at least its whole footer, its
     *     length and the closing magic
     * @return the same bytes with the footer re-serialised carrying {@code createdBy}
     */
    static byte[] restamp(byte[] tail, String createdBy) throws IOException {
        int n = tail.length;
        if (n < 8 || !Arrays.equals(tail, n - 4, n, MAGIC, 0, 4)) {
            throw new IOException("Parquet writer output does not end with its footer; the file is incomplete.");
        }
        int footerLength = ByteBuffer.wrap(tail, n - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        int footerStart = n - 8 - footerLength;
        if (footerLength <= 0 || footerStart < 0) {
            throw new IOException("Parquet footer length " + footerLength + " does not fit the file tail of " + n + " bytes.");
        }
        FileMetaData footer = Util.readFileMetaData(new ByteArrayInputStream(tail, footerStart, footerLength));
        footer.setCreated_by(createdBy);
        pinSetOrder(footer);

        ByteArrayOutputStream out = new ByteArrayOutputStream(n + createdBy.length());
        out.write(tail, 0, footerStart);
        Util.writeFileMetaData(footer, out);
        int newLength = out.size() - footerStart;
        out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(newLength).array());
        out.write(MAGIC);
        return out.toByteArray();
    }

    /**
     * parquet-java collects each column chunk's encodings (and their page statistics) in hash
     * sets of enums, whose iteration order follows identity hash codes and so changes from one JVM
     * to the next (JVM flags alone were seen to flip it). Sorting them makes the footer, and so the
     * object, a function of the records alone.
     */
    private static void pinSetOrder(FileMetaData footer) {
        for (RowGroup group : footer.getRow_groups()) {
            for (ColumnChunk chunk : group.getColumns()) {
                ColumnMetaData meta = chunk.getMeta_data();
                if (meta == null) {
                    continue;
                }
                if (meta.getEncodings() != null) {
                    List<Encoding> encodings = new ArrayList<>(meta.getEncodings());
                    encodings.sort(Comparator.comparingInt(Encoding::getValue));
                    meta.setEncodings(encodings);
                }
                if (meta.getEncoding_stats() != null) {
                    List<PageEncodingStats> stats = new ArrayList<>(meta.getEncoding_stats());
                    stats.sort(Comparator.<PageEncodingStats>comparingInt(st -> st.getPage_type().getValue())
                            .thenComparingInt(st -> st.getEncoding().getValue()));
                    meta.setEncoding_stats(stats);
                }
            }
        }
    }
}
