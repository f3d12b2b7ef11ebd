package io.queenlake.format.parquet;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.Util;

/**
 * Replaces the footer's {@code created_by}. parquet-java 1.15 always writes its own build string
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

        ByteArrayOutputStream out = new ByteArrayOutputStream(n + createdBy.length());
        out.write(tail, 0, footerStart);
        Util.writeFileMetaData(footer, out);
        int newLength = out.size() - footerStart;
        out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(newLength).array());
        out.write(MAGIC);
        return out.toByteArray();
    }
}
