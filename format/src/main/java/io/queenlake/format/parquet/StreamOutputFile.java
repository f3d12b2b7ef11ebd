package io.queenlake.format.parquet;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} over a caller's stream: counts positions, never closes the caller's
 * stream, and, once told the footer is coming, holds the rest back so {@link FooterStamp} can
 * rewrite {@code created_by} before it goes out. No Hadoop FileSystem is involved.
 */
final class StreamOutputFile implements OutputFile {
    private final CountingStream stream;

    StreamOutputFile(OutputStream out, String createdBy) {
        this.stream = new CountingStream(out, createdBy);
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) {
        return stream;
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) {
        return stream;
    }

    @Override
    public boolean supportsBlockSize() {
        return false;
    }

    @Override
    public long defaultBlockSize() {
        return 0;
    }

    /** From here on (column indexes, offset indexes, footer) bytes stay in memory until close. */
    void holdTail() {
        stream.tail = new ByteArrayOutputStream(64 * 1024);
    }

    private static final class CountingStream extends PositionOutputStream {
        private final OutputStream out;
        private final String createdBy;
        private ByteArrayOutputStream tail;
        private long pos;
        private boolean closed;

        CountingStream(OutputStream out, String createdBy) {
            this.out = new BufferedOutputStream(out, 64 * 1024);
            this.createdBy = createdBy;
        }

        @Override
        public long getPos() {
            return pos;
        }

        @Override
        public void write(int b) throws IOException {
            (tail != null ? tail : out).write(b);
            pos++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            (tail != null ? tail : out).write(b, off, len);
            pos += len;
        }

        @Override
        public void flush() throws IOException {
            if (tail == null) {
                out.flush();
            }
        }

        /**
         * Sends the restamped tail and flushes; the caller's stream stays open. Without a tail
         * the writer failed before its footer, and that failure is what the caller sees.
         */
        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            if (tail != null) {
                out.write(FooterStamp.restamp(tail.toByteArray(), createdBy));
            }
            out.flush();
        }
    }
}
