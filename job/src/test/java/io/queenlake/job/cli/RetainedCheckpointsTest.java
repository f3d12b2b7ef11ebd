package io.queenlake.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checkpoint a restart resumes from: the newest complete one, whichever earlier run retained it. */
class RetainedCheckpointsTest {

    @TempDir
    Path dir;

    private Path checkpoint(String job, int n, Instant metadataWritten) throws Exception {
        Path chk = Files.createDirectories(dir.resolve(job).resolve("chk-" + n));
        if (metadataWritten != null) {
            Path metadata = Files.write(chk.resolve("_metadata"), new byte[] {1});
            Files.setLastModifiedTime(metadata, FileTime.from(metadataWritten));
        }
        return chk;
    }

    @Test
    void theNewestCompleteCheckpointWinsAcrossJobs() throws Exception {
        checkpoint("job-a", 7, Instant.parse("2026-10-03T06:00:00Z"));
        Path newest = checkpoint("job-b", 9, Instant.parse("2026-10-03T06:05:00Z"));
        checkpoint("job-b", 10, null);
        Files.createDirectories(dir.resolve("job-b").resolve("shared"));

        assertThat(RetainedCheckpoints.newest(dir)).get().satisfies(r -> {
            assertThat(r.dir()).isEqualTo(newest);
            assertThat(r.number()).isEqualTo(9);
        });
    }

    @Test
    void aCheckpointWithoutMetadataIsNeverResumedFrom() throws Exception {
        checkpoint("job-a", 3, null);

        assertThat(RetainedCheckpoints.newest(dir)).isEmpty();
        assertThat(RetainedCheckpoints.newest(dir.resolve("absent"))).isEmpty();
    }
}
