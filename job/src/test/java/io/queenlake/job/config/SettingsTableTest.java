package io.queenlake.job.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** README.md's settings table is the one the definitions render, to the character. */
class SettingsTableTest {

    private static final Path README = Path.of("..", "README.md").toAbsolutePath().normalize();

    @Test
    void theReadmeSettingsTableIsRenderedFromTheDefinitions() throws IOException {
        assertThat(readmeTable())
                .as("README.md's table under '## Settings' against SettingsTable.markdown(); after changing a"
                        + " setting's definition, paste the output of io.queenlake.job.config.SettingsTable there")
                .isEqualTo(SettingsTable.markdown());
    }

    /** The first run of table lines in the section "## Settings", up to the next section. */
    private static String readmeTable() throws IOException {
        List<String> lines = Files.readAllLines(README);
        int start = lines.indexOf("## Settings");
        assertThat(start).as("a '## Settings' section in " + README).isNotNegative();
        List<String> section = lines.subList(start + 1, lines.size()).stream()
                .takeWhile(line -> !line.startsWith("## "))
                .collect(Collectors.toList());
        return section.stream()
                .dropWhile(line -> !line.startsWith("|"))
                .takeWhile(line -> line.startsWith("|"))
                .map(line -> line + "\n")
                .collect(Collectors.joining());
    }
}
