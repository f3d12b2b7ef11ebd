package io.queenlake.format.jsonl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class StringStopsTest {

    @Test
    void aHighByteAtAnyPlaceOfAnyLengthIsSeen() {
        for (int length = 0; length <= 25; length++) {
            byte[] text = new byte[length];
            Arrays.fill(text, (byte) 0x7F);
            assertThat(StringStops.isAscii(text)).as("length %d, all ASCII", length).isTrue();
            for (int at = 0; at < length; at++) {
                for (int high : new int[] {0x80, 0xC3, 0xFF}) {
                    byte[] withHigh = text.clone();
                    withHigh[at] = (byte) high;
                    assertThat(StringStops.isAscii(withHigh)).as("length %d, 0x%X at %d", length, high, at).isFalse();
                }
            }
        }
    }
}
