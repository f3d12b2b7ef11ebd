package io.queenlake.broker.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** One outage per key: opened by its first failure, counted, ended by the first answer with how long it lasted. */
class OutagesTest {

    private final AtomicLong nanos = new AtomicLong();
    private final Outages outages = new Outages(nanos::get);

    @Test
    void theFirstFailureOpensTheOutageAndTheFirstAnswerEndsIt() {
        assertThat(outages.answered("orders")).as("an answer with no outage says nothing").isEmpty();
        assertThat(outages.failed("orders")).as("opens: the caller's WARN").isEqualTo(1);
        nanos.addAndGet(3_000_000_000L);
        assertThat(outages.failed("orders")).isEqualTo(2);
        assertThat(outages.failed("invoices")).as("another key has its own outage").isEqualTo(1);
        assertThat(outages.isOpen("orders")).isTrue();
        nanos.addAndGet(4_000_000_000L);

        assertThat(outages.answered("orders")).hasValue(new Outages.Ended(7, 2));
        assertThat(outages.isOpen("orders")).isFalse();
        assertThat(outages.isOpen("invoices")).isTrue();
        assertThat(outages.failed("orders")).as("a new outage").isEqualTo(1);
    }

    @Test
    void aCallFoundHangingOpensTheOutageFromWhenItStarted() {
        nanos.set(10_000_000_000L);
        assertThat(outages.failed("orders", 2_000_000_000L)).isEqualTo(1);
        assertThat(outages.answered("orders")).hasValue(new Outages.Ended(8, 1));
    }
}
