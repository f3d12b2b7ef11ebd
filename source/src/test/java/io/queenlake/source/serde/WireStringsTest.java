package io.queenlake.source.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataInputViewStreamWrapper;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.core.memory.DataOutputViewStreamWrapper;
import org.apache.flink.types.StringValue;
import org.junit.jupiter.api.Test;

/**
 * State and savepoints hold strings in Flink's {@code StringValue} bytes, whichever of the two wrote
 * them: the fast writer writes the same bytes, and each reader reads what the other wrote, through
 * the network's buffers and through a checkpoint stream alike.
 */
class WireStringsTest {

    private static List<String> strings() {
        List<String> all = new ArrayList<>(List.of("", "a", "orders", "cust-00042", "\u0000", "\u007f", "\u0080",
                "caf\u00e9", "\u00ff", "\u0100", "\u3fff", "\u4000", "\u65e5\u672c", "\uffff",
                "\ud83d\ude00 emoji", "lone \ud800 high", "lone \udc00 low", "?\ud800?", "ascii then \u00e9",
                "\u00e9 then ascii", "x".repeat(126), "x".repeat(127), "x".repeat(128), "x".repeat(16_382),
                "x".repeat(16_383), "x".repeat(16_384), "\u00e9".repeat(5_000), "y".repeat(300) + "\u4e2d",
                "z".repeat(65_536), "z".repeat(65_537) + "\u00e9", "w".repeat(2_097_150), "w".repeat(2_097_151)));
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 3_000; i++) {
            StringBuilder s = new StringBuilder();
            int length = random.nextInt(60);
            int range = switch (i % 4) {
                case 0 -> 0x80;
                case 1 -> 0x100;
                case 2 -> 0x4000;
                default -> 0x10000;
            };
            for (int j = 0; j < length; j++) {
                s.append((char) random.nextInt(range));
            }
            all.add(s.toString());
        }
        return all;
    }

    private static byte[] flinkBytes(String s) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(16);
        StringValue.writeString(s, out);
        return out.getCopyOfBuffer();
    }

    @Test
    void everyStringIsWrittenInStringValuesBytes() throws IOException {
        for (String s : strings()) {
            DataOutputSerializer out = new DataOutputSerializer(16);
            WireStrings.write(s, out);
            assertThat(out.getCopyOfBuffer()).as("bytes of %s", s).isEqualTo(flinkBytes(s));
        }
    }

    @Test
    void aCheckpointStreamGetsTheSameBytes() throws IOException {
        for (String s : strings()) {
            ByteArrayOutputStream stream = new ByteArrayOutputStream();
            WireStrings.write(s, new DataOutputViewStreamWrapper(stream));
            assertThat(stream.toByteArray()).as("bytes of %s", s).isEqualTo(flinkBytes(s));
        }
    }

    @Test
    void whatStringValueWroteReadsBackWhole() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(1 << 16);
        List<String> all = strings();
        for (String s : all) {
            StringValue.writeString(s, out);
            out.writeInt(0x5eed); // what follows a string is left for its reader
        }
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        for (String s : all) {
            assertThat(WireStrings.read(in)).isEqualTo(s);
            assertThat(in.readInt()).isEqualTo(0x5eed);
        }
        assertThat(in.available()).isZero();
    }

    @FunctionalInterface
    private interface Writer {
        void write(String s, DataOutputView out) throws IOException;
    }

    @FunctionalInterface
    private interface Reader {
        String read(DataInputView in) throws IOException;
    }

    /** Writes every string through a checkpoint-like stream with {@code writer}, a sentinel after each, and reads them back. */
    private static void readsBackWholeThroughAStream(Writer writer, Reader reader) throws IOException {
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        DataOutputViewStreamWrapper out = new DataOutputViewStreamWrapper(stream);
        List<String> all = strings();
        for (String s : all) {
            writer.write(s, out);
            out.writeByte(0x7e);
        }
        DataInputViewStreamWrapper in = new DataInputViewStreamWrapper(new ByteArrayInputStream(stream.toByteArray()));
        for (String s : all) {
            assertThat(reader.read(in)).isEqualTo(s);
            assertThat(in.readByte()).isEqualTo((byte) 0x7e);
        }
    }

    @Test
    void whatThisWroteStringValueReadsBackWholeFromAStream() throws IOException {
        readsBackWholeThroughAStream(WireStrings::write, StringValue::readString);
    }

    @Test
    void whatStringValueWroteToAStreamReadsBackWholeFromIt() throws IOException {
        readsBackWholeThroughAStream(StringValue::writeString, WireStrings::read);
    }

    @Test
    void nullIsWrittenAndReadAsStringValueDoes() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(4);
        WireStrings.write(null, out);
        assertThat(out.getCopyOfBuffer()).isEqualTo(flinkBytes(null));
        assertThat(WireStrings.read(new DataInputDeserializer(out.getCopyOfBuffer()))).isNull();
    }
}
