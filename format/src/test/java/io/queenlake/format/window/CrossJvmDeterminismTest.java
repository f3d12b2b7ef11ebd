package io.queenlake.format.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.testutils.DeterminismProbe;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A second JVM encoding the same window must print the same sha256 for every format. */
class CrossJvmDeterminismTest {

    private static List<String> secondJvm;

    @BeforeAll
    static void runTheProbeInASecondJvm() throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                DeterminismProbe.class.getName())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isZero();
        secondJvm = printed.lines().toList();
    }

    private static void assertSameIn(String writerPrefix) throws IOException {
        List<String> here = DeterminismProbe.sha256Lines().stream().filter(l -> l.startsWith(writerPrefix)).toList();
        List<String> there = secondJvm.stream().filter(l -> l.startsWith(writerPrefix)).toList();
        assertThat(here).isNotEmpty();
        assertThat(there).containsExactlyElementsOf(here);
    }

    @Test
    void jsonlObjectsAreByteIdenticalInASecondJvm() throws IOException {
        assertSameIn("queen-lake/0.1.0 jsonl");
    }

    @Test
    void parquetObjectsAreByteIdenticalInASecondJvm() throws IOException {
        assertSameIn("queen-lake/0.1.0 parquet");
    }
}
