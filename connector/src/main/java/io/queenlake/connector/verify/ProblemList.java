package io.queenlake.connector.verify;

import java.util.ArrayList;
import java.util.List;

/** The problems of one check, each one sentence; past a cap only counted, so a ruined lake still prints a short report. */
final class ProblemList {

    private static final int MAX_PROBLEMS = 50;

    private final List<String> list = new ArrayList<>();
    private int dropped;

    void add(String problem) {
        if (list.size() < MAX_PROBLEMS) {
            list.add(problem);
        } else {
            dropped++;
        }
    }

    List<String> list() {
        if (dropped == 0) {
            return list;
        }
        List<String> all = new ArrayList<>(list);
        all.add("... and " + dropped + " more problems");
        return all;
    }
}
