package io.queenlake.format.order;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Utf8ByteOrderTest {

    @Test
    void aSupplementaryCharacterSortsAfterHighBmpCharactersAsInUtf8() {
        String grin = "\uD83D\uDE00"; // U+1F600, UTF-8 F0 9F 98 80
        String tilde = "\uFF5E"; // U+FF5E, UTF-8 EF BD 9E
        assertThat(grin.compareTo(tilde)).as("UTF-16 order disagrees").isLessThan(0);
        assertThat(Utf8ByteOrder.INSTANCE.compare(grin, tilde)).isGreaterThan(0);
        assertThat(Utf8ByteOrder.INSTANCE.compare(tilde, grin)).isLessThan(0);
        assertThat(Utf8ByteOrder.INSTANCE.compare("\uE000", grin)).isLessThan(0);
    }

    @Test
    void agreesWithComparingTheUtf8BytesOnRandomNames() {
        long seed = 42;
        Random random = new Random(seed);
        int[] pool = {'a', 'b', ' ', '-', 0x7F, 0xE8, 0x2028, 0xD7FF, 0xE000, 0xFF5E, 0xFFFF, 0x1F600, 0x10000, 0x10FFFF};
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            StringBuilder sb = new StringBuilder();
            int len = random.nextInt(4);
            for (int k = 0; k < len; k++) {
                sb.appendCodePoint(pool[random.nextInt(pool.length)]);
            }
            names.add(sb.toString());
        }
        for (int i = 0; i + 1 < names.size(); i++) {
            String a = names.get(i);
            String b = names.get(i + 1);
            int expected = Integer.signum(Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8),
                    b.getBytes(StandardCharsets.UTF_8)));
            assertThat(Integer.signum(Utf8ByteOrder.INSTANCE.compare(a, b))).as("seed %d: %s vs %s", seed, a, b)
                    .isEqualTo(expected);
        }
    }
}
