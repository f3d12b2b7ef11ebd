package io.queenlake.source.serde;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * Strings in exactly the bytes of Flink's {@link StringValue#writeString} (the length plus one,
 * then every char, each as a 7-bit varint), so state and savepoints written either way read
 * either way. What differs is the cost: {@code StringValue} makes one {@code DataOutput.write}
 * call per byte, which profiles of the lake showed as the largest part of serializing a record
 * (four names per record, for the keyed shuffle and every state snapshot). This encodes into a
 * per-thread buffer and writes once, and reads an all-ASCII string (every name Queen hands out in
 * practice) with one {@code readFully}.
 */
@Internal
public final class WireStrings {

    private static final int HIGH_BIT = 0x80;
    /** Scratch buffers above this size are not kept for the thread. */
    private static final int KEPT_BYTES = 1 << 12;
    /** Longer strings are rare (no name is this long): StringValue writes them, without a 3x buffer. */
    private static final int BUFFERED_CHARS = 1 << 16;
    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[256]);

    private WireStrings() {}

    public static void write(String s, DataOutputView out) throws IOException {
        if (s == null) {
            out.write(0); // as StringValue writes null
            return;
        }
        int length = s.length();
        if (length > BUFFERED_CHARS) {
            StringValue.writeString(s, out);
            return;
        }
        // A length varint takes at most 5 bytes, a char at most 3.
        byte[] buf = scratch(5 + 3 * length);
        int n = putVarint(buf, 0, length + 1);
        for (int i = 0; i < length; i++) {
            n = putVarint(buf, n, s.charAt(i));
        }
        out.write(buf, 0, n);
    }

    /** Reads what {@link #write} or {@code StringValue.writeString} wrote; null where it wrote null. */
    public static String read(DataInputView in) throws IOException {
        int lengthPlusOne = readVarint(in);
        if (lengthPlusOne == 0) {
            return null;
        }
        int length = lengthPlusOne - 1;
        // Every char takes at least one byte, so reading `length` bytes never reads past the string.
        byte[] buf = scratch(length);
        in.readFully(buf, 0, length);
        int ascii = 0;
        while (ascii < length && buf[ascii] >= 0) {
            ascii++;
        }
        if (ascii == length) {
            return new String(buf, 0, length, StandardCharsets.ISO_8859_1);
        }
        return finishWide(buf, ascii, length, in);
    }

    /** The rest of a string with a char of 0x80 or more: its varints may run past the bytes read so far. */
    private static String finishWide(byte[] buf, int ascii, int length, DataInputView in) throws IOException {
        char[] chars = new char[length];
        for (int i = 0; i < ascii; i++) {
            chars[i] = (char) buf[i];
        }
        int pos = ascii;
        for (int i = ascii; i < length; i++) {
            int c = 0;
            int shift = 0;
            int b;
            do {
                b = pos < length ? buf[pos++] & 0xFF : in.readUnsignedByte();
                c |= (b & (HIGH_BIT - 1)) << shift;
                shift += 7;
            } while (b >= HIGH_BIT);
            chars[i] = (char) c;
        }
        return new String(chars);
    }

    private static int putVarint(byte[] buf, int n, int value) {
        while (value >= HIGH_BIT) {
            buf[n++] = (byte) (value | HIGH_BIT);
            value >>>= 7;
        }
        buf[n++] = (byte) value;
        return n;
    }

    private static int readVarint(DataInputView in) throws IOException {
        int value = 0;
        int shift = 0;
        int b;
        do {
            b = in.readUnsignedByte();
            value |= (b & (HIGH_BIT - 1)) << shift;
            shift += 7;
        } while (b >= HIGH_BIT);
        return value;
    }

    private static byte[] scratch(int bytes) {
        byte[] buf = SCRATCH.get();
        if (buf.length >= bytes) {
            return buf;
        }
        byte[] grown = new byte[Math.max(bytes, 2 * buf.length)];
        if (grown.length <= KEPT_BYTES) {
            SCRATCH.set(grown);
        }
        return grown;
    }
}
