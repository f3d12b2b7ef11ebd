package io.queenlake.format.jsonl;

import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * One gzip member (RFC 1952) with a fixed header: no MTIME, no name, no comment, XFL 0 and a
 * chosen OS byte. {@link java.util.zip.GZIPOutputStream} cannot pin the OS byte or the level, so
 * the member is framed here around a raw deflater. Closing finishes the member, not {@code out}.
 */
final class GzipMember extends OutputStream {

    private final OutputStream out;
    private final Deflater deflater;
    private final CRC32 crc = new CRC32();
    private final byte[] chunk = new byte[64 * 1024];
    private long inputSize;
    private boolean closed;

    GzipMember(OutputStream out, int level, int osByte) throws IOException {
        this.out = out;
        this.deflater = new Deflater(level, true);
        out.write(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) osByte});
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return;
        }
        crc.update(b, off, len);
        inputSize += len;
        deflater.setInput(b, off, len);
        while (!deflater.needsInput()) {
            drain(Deflater.NO_FLUSH);
        }
    }

    private void drain(int flush) throws IOException {
        int n = deflater.deflate(chunk, 0, chunk.length, flush);
        if (n > 0) {
            out.write(chunk, 0, n);
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            deflater.finish();
            while (!deflater.finished()) {
                drain(Deflater.NO_FLUSH);
            }
            long c = crc.getValue();
            out.write(new byte[] {
                (byte) c, (byte) (c >> 8), (byte) (c >> 16), (byte) (c >> 24),
                (byte) inputSize, (byte) (inputSize >> 8), (byte) (inputSize >> 16), (byte) (inputSize >> 24)
            });
        } finally {
            deflater.end();
        }
    }
}
