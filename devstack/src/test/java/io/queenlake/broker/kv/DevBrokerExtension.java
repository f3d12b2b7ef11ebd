package io.queenlake.broker.kv;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One dev broker for a test class of the KV protocol, and a client to it:
 * {@code @RegisterExtension static final DevBrokerExtension BROKER = new DevBrokerExtension();}.
 */
final class DevBrokerExtension implements BeforeAllCallback, AfterAllCallback {

    private DevBroker broker;
    private HttpQueenClient client;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        broker = DevBroker.start(DevBrokerOptions.builder().build());
        client = HttpQueenClient.builder().baseUrl(broker.url().toString()).build();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        broker.close();
    }

    HttpQueenClient client() {
        return client;
    }
}
