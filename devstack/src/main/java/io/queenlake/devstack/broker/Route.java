package io.queenlake.devstack.broker;

import java.io.IOException;

/** One HTTP route of the broker: it reads a {@link Call} and answers through a {@link Reply}. */
interface Route {

    /** What a route gets: the caller's tenant (already checked), the raw body and the query string. */
    record Call(String tenant, byte[] body, String query) {}

    void handle(Call call, Reply reply) throws IOException;
}
