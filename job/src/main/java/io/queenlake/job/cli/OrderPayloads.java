package io.queenlake.job.cli;

/** Sample order payloads of about a chosen size, a pure function of their sequence number. */
final class OrderPayloads {

    private static final String[] STATUS = {"created", "paid", "packed", "shipped", "delivered"};
    private static final String[] CURRENCY = {"EUR", "USD", "GBP", "CHF"};
    private final int targetBytes;

    OrderPayloads(int targetBytes) {
        this.targetBytes = targetBytes;
    }

    String order(long seq) {
        StringBuilder json = new StringBuilder(targetBytes + 32);
        json.append("{\"order\":").append(seq)
                .append(",\"status\":\"").append(STATUS[(int) (seq % STATUS.length)])
                .append("\",\"total\":").append(seq % 997).append('.').append(seq % 10).append('0')
                .append(",\"currency\":\"").append(CURRENCY[(int) (seq % CURRENCY.length)])
                .append("\",\"note\":\"");
        long x = seq * 0x9E3779B97F4A7C15L + 1;
        while (json.length() < targetBytes - 2) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            json.append((char) ('a' + (int) ((x >>> 33) % 26)));
        }
        return json.append("\"}").toString();
    }
}
