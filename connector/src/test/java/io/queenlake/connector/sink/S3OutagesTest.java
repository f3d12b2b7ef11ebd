package io.queenlake.connector.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.source.testlog.CapturedLog;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The outage tracker: one WARN per queue outage, failed or hanging calls alike, one INFO when it ends. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class S3OutagesTest {

    private static final String PREFIX = "WARN S3 unavailable for queue 'orders': endpoint http://s3:9000 bucket lake: ";

    private final AtomicLong now = new AtomicLong();

    private S3Outages tracker() {
        return new S3Outages("http://s3:9000", "lake", now::get, Duration.ofSeconds(10), false);
    }

    private void advance(long seconds) {
        now.addAndGet(TimeUnit.SECONDS.toNanos(seconds));
    }

    @Test
    void aCallThatHangsIsReportedOnceAfterTheThresholdAndItsAnswerOnceAsTheRecovery() throws Exception {
        S3Outages outages = tracker();
        try (CapturedLog log = CapturedLog.of(S3Outages.class)) {
            S3Outages.Call hanging = outages.begin("orders", "staging object a.parquet");
            advance(9);
            outages.checkHanging();
            assertThat(log.lines()).isEmpty();

            advance(1);
            outages.checkHanging();
            advance(5);
            outages.checkHanging();
            // Another call of the queue that hangs or fails during the outage says nothing.
            S3Outages.Call second = outages.begin("orders", "staging object b.parquet");
            advance(20);
            outages.checkHanging();
            second.failed(new ConnectException("Connection refused"));
            assertThat(log.lines()).containsExactly(PREFIX + "staging object a.parquet has not returned after 10 s"
                    + " (the S3 file system retries inside the call); retrying, one line when it recovers");

            hanging.succeeded();
            hanging.close();
            assertThat(log.lines()).hasSize(2);
            assertThat(log.lines().get(1)).isEqualTo("INFO S3 available again for queue 'orders': endpoint"
                    + " http://s3:9000 bucket lake, after 35 s and 2 failed attempts");
            assertThat(outages.inFlight()).isZero();

            // Over: a later success says nothing more.
            outages.run("orders", "staging object c.parquet", () -> "ok");
            assertThat(log.lines()).hasSize(2);
        }
    }

    @Test
    void aHangingCallThatFinallyFailsIsNotCountedTwiceAndAFailedCallIsReportedAtOnce() throws Exception {
        S3Outages outages = tracker();
        try (CapturedLog log = CapturedLog.of(S3Outages.class)) {
            assertThatThrownBy(() -> outages.run("orders", "committing window 7", () -> {
                throw new IOException("503 Slow Down");
            })).hasMessage("503 Slow Down");
            assertThat(log.lines()).containsExactly(PREFIX + "committing window 7 failed: java.io.IOException: 503 Slow"
                    + " Down; retrying, one line when it recovers");

            S3Outages.Call hanging = outages.begin("orders", "staging object a.parquet");
            advance(11);
            outages.checkHanging();
            hanging.failed(new IOException("gave up"));
            advance(1);
            outages.run("orders", "committing window 7", () -> null);
            assertThat(log.lines()).hasSize(2).last().isEqualTo("INFO S3 available again for queue 'orders':"
                    + " endpoint http://s3:9000 bucket lake, after 12 s and 2 failed attempts");
        }
    }

    @Test
    void queuesHaveOutagesOfTheirOwn() throws Exception {
        S3Outages outages = tracker();
        try (CapturedLog log = CapturedLog.of(S3Outages.class)) {
            S3Outages.Call orders = outages.begin("orders", "staging object a");
            S3Outages.Call payments = outages.begin("payments", "staging object b");
            advance(12);
            outages.checkHanging();
            assertThat(log.lines()).hasSize(2).anyMatch(l -> l.contains("queue 'orders'"))
                    .anyMatch(l -> l.contains("queue 'payments'"));
            orders.succeeded();
            assertThat(log.lines()).hasSize(3).last().asString().startsWith("INFO S3 available again for queue 'orders'");
            payments.close(); // no verdict: the outage of payments stays open
            assertThat(log.lines()).hasSize(3);
        }
    }

    @Test
    void theWatchdogThreadReportsAHangingCallWithoutAnyoneCallingIn() throws Exception {
        S3Outages outages = new S3Outages("http://s3:9000", "lake", System::nanoTime, Duration.ofMillis(1500), true);
        try (CapturedLog log = CapturedLog.of(S3Outages.class)) {
            CountDownLatch release = new CountDownLatch(1);
            long start = System.nanoTime();
            CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> {
                try {
                    return outages.run("orders", "staging object a", () -> {
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            throw new IOException(e);
                        }
                        return "ok";
                    });
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            while (log.lines().isEmpty()) {
                assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(5));
                Thread.sleep(50);
            }
            assertThat(log.lines()).singleElement().asString().startsWith(PREFIX + "staging object a has not returned");
            release.countDown();
            assertThat(call.get(5, TimeUnit.SECONDS)).isEqualTo("ok");
            assertThat(log.lines()).hasSize(2).last().asString().startsWith("INFO S3 available again");
        }
    }
}
