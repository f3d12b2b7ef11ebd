package io.queenlake.broker.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Decodes the answers of the small routes: the queue listing and health. */
final class SmallAnswers {

    private SmallAnswers() {}

    /** {@code {"queues":[{"name":...}, ...]}}: names only, empty names dropped, extra fields ignored. */
    static List<String> queueNames(byte[] body) throws IOException {
        List<String> names = new ArrayList<>();
        boolean sawQueues = false;
        try (JsonCursor c = new JsonCursor(body)) {
            c.next();
            c.requireObject("the queue listing");
            for (String field = c.nextField(); field != null; field = c.nextField()) {
                if (!field.equals("queues")) {
                    c.skipValue();
                    continue;
                }
                sawQueues = true;
                c.requireArray("queues");
                while (c.nextElement()) {
                    c.requireObject("a queue");
                    for (String f = c.nextField(); f != null; f = c.nextField()) {
                        if (f.equals("name")) {
                            String name = c.optionalText("name");
                            if (name != null && !name.isEmpty()) {
                                names.add(name);
                            }
                        } else {
                            c.skipValue();
                        }
                    }
                }
            }
            c.requireEnd();
        }
        if (!sawQueues) {
            throw new WireFormatException("the queue listing has no queues field");
        }
        return names;
    }

    /** {@code {"status":"healthy", ...}} with the status the broker answered. */
    static BrokerHealth health(int httpStatus, byte[] body) throws IOException {
        String status = null;
        try (JsonCursor c = new JsonCursor(body)) {
            c.next();
            c.requireObject("the health answer");
            for (String field = c.nextField(); field != null; field = c.nextField()) {
                if (field.equals("status")) {
                    status = c.optionalText("status");
                } else {
                    c.skipValue();
                }
            }
        }
        if (status == null) {
            throw new WireFormatException("the health answer has no status");
        }
        return new BrokerHealth(httpStatus, status);
    }
}
