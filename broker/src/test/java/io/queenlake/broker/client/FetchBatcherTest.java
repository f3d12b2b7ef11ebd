package io.queenlake.broker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.queenlake.broker.client.ScriptedBroker.Reply;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FetchBatcherTest {

    private ScriptedBroker broker;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger mostInFlight = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        broker = new ScriptedBroker();
        broker.always(this::echoCaughtUp);
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    /** Answers every entry as caught up at its offset, holding the call briefly so calls overlap. */
    private Reply echoCaughtUp(ScriptedBroker.Call call) {
        int now = inFlight.incrementAndGet();
        mostInFlight.accumulateAndGet(now, Math::max);
        try {
            Thread.sleep(40);
            StringBuilder out = new StringBuilder("{\"entries\":[");
            List<String[]> entries = entries(call.body());
            for (int i = 0; i < entries.size(); i++) {
                String[] e = entries.get(i);
                out.append(i == 0 ? "" : ",").append("{\"queue\":\"").append(e[0]).append("\",\"partition\":\"").append(e[1])
                        .append("\",\"records\":[],\"highWatermark\":").append(e[2]).append(",\"logStartOffset\":0}");
            }
            return Reply.json(200, out.append("]}").toString());
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    private static List<String[]> entries(String body) {
        List<String[]> entries = new ArrayList<>();
        try (JsonParser p = JsonCursor.FACTORY.createParser(body)) {
            String queue = null;
            String partition = null;
            String offset = null;
            while (p.nextToken() != null) {
                if (p.currentToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    p.nextToken();
                    switch (name) {
                        case "queue" -> queue = p.getText();
                        case "partition" -> partition = p.getText();
                        case "offset" -> offset = p.getText();
                        default -> { }
                    }
                } else if (p.currentToken() == JsonToken.END_OBJECT && queue != null) {
                    entries.add(new String[] {queue, partition, offset});
                    queue = null;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return entries;
    }

    private static List<FetchEntry> entries(int count) {
        return IntStream.range(0, count).mapToObj(i -> FetchEntry.of("q" + (i % 3), "p" + i, i, 1000 + i)).toList();
    }

    @Test
    void manyEntriesGoOutInCallsOfAtMost1024AndComeBackInEntryOrder() {
        List<FetchEntry> asked = entries(2500);
        List<FetchedPartition> answered = new FetchBatcher(broker.client(), 2).fetchAll(asked);

        assertThat(broker.calls()).hasSize(3);
        assertThat(broker.calls()).extracting(call -> entries(call.body()).size())
                .containsExactlyInAnyOrder(1024, 1024, 452);
        assertThat(answered).hasSize(2500);
        for (int i = 0; i < asked.size(); i++) {
            assertThat(answered.get(i).partition()).isEqualTo(asked.get(i).partition());
            assertThat(answered.get(i).highWatermark()).isEqualTo(asked.get(i).offset());
        }
    }

    @Test
    void eachEntryKeepsItsOwnByteBudget() {
        new FetchBatcher(broker.client(), 1).fetchAll(entries(2));
        assertThat(broker.calls().get(0).body()).contains("\"partition\":\"p0\",\"offset\":0,\"maxBytes\":1000}")
                .contains("\"partition\":\"p1\",\"offset\":1,\"maxBytes\":1001}");
    }

    @Test
    void noMoreThanTheAllowedCallsAreEverInFlight() {
        new FetchBatcher(broker.client(), 2, 10).fetchAll(entries(100));
        assertThat(broker.calls()).hasSize(10);
        assertThat(mostInFlight.get()).isEqualTo(2);
    }

    @Test
    void oneFailedCallFailsTheReadWithItsClassifiedError() {
        broker.always(call -> entries(call.body()).get(0)[1].equals("p20")
                ? Reply.json(503, "{\"error\":\"no leader\",\"code\":\"no_leader\"}", "Retry-After", "1")
                : echoCaughtUp(call));
        QueenException e = catchThrowableOfType(
                () -> new FetchBatcher(broker.client(), 3, 10).fetchAll(entries(60)), QueenException.class);
        assertThat(e.status()).isEqualTo(503);
        assertThat(e.retriable()).isTrue();
    }

    @Test
    void noEntriesMakeNoCall() {
        assertThat(new FetchBatcher(broker.client(), 2).fetchAll(List.of())).isEmpty();
        assertThat(broker.calls()).isEmpty();
    }
}
