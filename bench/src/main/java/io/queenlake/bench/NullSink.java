package io.queenlake.bench;

import java.io.OutputStream;

/** Counts and drops bytes, so a measurement times the encoder and not a disk. */
final class NullSink extends OutputStream {
    long bytes;

    @Override
    public void write(int b) {
        bytes++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        bytes += len;
    }
}
