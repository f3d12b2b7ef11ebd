package io.queenlake.format.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.testutils.DeterminismProbe;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A second JVM encoding the same window must print the same sha256 for every format. */
class CrossJvmDeterminismTest {

    @Test
    void aSecondJvmWritesTheSameBytes() throws IOException, InterruptedException {
        List<String> here = DeterminismProbe.sha256Lines();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                DeterminismProbe.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isZero();
        assertThat(printed.lines().toList()).hasSize(here.size()).containsExactlyElementsOf(here);
    }
}
