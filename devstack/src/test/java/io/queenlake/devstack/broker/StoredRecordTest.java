package io.queenlake.devstack.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A stored record is its fetch element, rendered once, with its payload a slice of it. */
class StoredRecordTest {

    @Test
    void aRecordIsItsFetchElementWithThePayloadAsPushed() {
        String big = "\"" + "\u00e9".repeat(40_000) + "\""; // over the generator's buffer and what a thread keeps
        for (String payload : new String[] {"1", "{ \"a\" : 42.00 }", big, "null", big, big, "2"}) {
            byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
            StoredRecord r = StoredRecord.of(7, ManualClock.START, "t-\"\n\u00e9", bytes);
            assertThat(r.json().getValue()).isEqualTo("{\"offset\":7,\"transactionId\":\"t-\\\"\\n\u00e9\",\"payload\":" + payload
                    + ",\"ts\":\"" + BrokerTime.iso(ManualClock.START) + "\"}");
            assertThat(r.payload()).isEqualTo(bytes);
            assertThat(r.weight()).isEqualTo(bytes.length);
        }
    }

    @Test
    void anEmptyPayloadIsAnsweredAsNullAndWeighsOne() {
        StoredRecord r = StoredRecord.of(0, ManualClock.START, "t", new byte[0]);
        assertThat(r.json().getValue()).contains(",\"payload\":null,");
        assertThat(r.payload()).isEmpty();
        assertThat(r.weight()).isEqualTo(1);
    }
}
