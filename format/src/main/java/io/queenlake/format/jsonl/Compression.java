package io.queenlake.format.jsonl;

import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * How a whole JSONL object is compressed, with every parameter pinned so the same lines always
 * give the same bytes (the object's name and writer string are the {@code Format}'s):
 * <ul>
 *   <li>{@code ZSTD}: zstd-jni level 3, one frame, no checksum, no content size (streamed);
 *   <li>{@code GZIP}: one member, deflate level 6 (the JDK's zlib), header MTIME=0, XFL=0, no
 *       FNAME/FCOMMENT, OS byte 255 ("unknown", as the reference's flate2 writes);
 *   <li>{@code NONE}: the lines as they are.
 * </ul>
 */
public enum Compression {
    ZSTD("zstd", "zst"),
    GZIP("gzip", "gz"),
    NONE("none", "off");

    public static final int ZSTD_LEVEL = 3;
    public static final int GZIP_LEVEL = 6;
    /** The gzip header's OS byte: 255, "unknown", the same as the reference writer. */
    public static final int GZIP_OS = 255;

    private final String wireName;
    private final String alias;

    Compression(String wireName, String alias) {
        this.wireName = wireName;
        this.alias = alias;
    }

    /** The manifest's {@code compression}. */
    public String wireName() {
        return wireName;
    }

    /** Every spelling the reference accepts ({@code zstd|zst}, {@code gzip|gz}, {@code none|off}), by its wire name. */
    public static Map<String, String> spellings() {
        Map<String, String> spellings = new LinkedHashMap<>();
        for (Compression c : values()) {
            spellings.put(c.wireName, c.wireName);
            spellings.put(c.alias, c.wireName);
        }
        return spellings;
    }

    /** Accepts the reference's spellings, in any case. */
    public static Compression parse(String text) {
        String s = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        for (Compression c : values()) {
            if (c.wireName.equals(s) || c.alias.equals(s)) {
                return c;
            }
        }
        throw new IllegalArgumentException("compression '" + text + "' is not one of zstd, gzip, none");
    }

    /**
     * A stream that compresses into {@code out}; closing it finishes the frame and leaves
     * {@code out} open.
     */
    OutputStream open(OutputStream out) throws IOException {
        return switch (this) {
            case ZSTD -> new ZstdFrame(out);
            case GZIP -> new GzipMember(out, GZIP_LEVEL, GZIP_OS);
            case NONE -> new FilterOutputStream(out) {
                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                }

                @Override
                public void close() {
                    // leaves the caller's stream open
                }
            };
        };
    }

    /**
     * The lines {@code in} holds, through the libraries' own decoders (zstd-jni's frame reader, the
     * JDK's gzip), never the writer's: what reads an object back stays independent of what wrote it.
     */
    InputStream decompress(InputStream in) throws IOException {
        return switch (this) {
            case ZSTD -> new ZstdInputStream(in);
            case GZIP -> new GZIPInputStream(in);
            case NONE -> in;
        };
    }

    /** One zstd frame; never flushed midway (a flush would end a block and change the bytes). */
    private static final class ZstdFrame extends OutputStream {
        private final ZstdOutputStreamNoFinalizer zstd;

        ZstdFrame(OutputStream out) throws IOException {
            zstd = new ZstdOutputStreamNoFinalizer(out, ZSTD_LEVEL);
            zstd.setChecksum(false);
            zstd.setWorkers(0);
        }

        @Override
        public void write(int b) throws IOException {
            zstd.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            zstd.write(b, off, len);
        }

        @Override
        public void flush() {
            // deliberately nothing: see the class comment
        }

        @Override
        public void close() throws IOException {
            zstd.closeWithoutClosingParentStream();
        }
    }
}
