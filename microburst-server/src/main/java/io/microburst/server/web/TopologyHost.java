package io.microburst.server.web;

import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.TopologyInfo;

/** The host and port of a topology's one worker, as its executors report them. Stateless. */
final class TopologyHost {
    private TopologyHost() {
    }

    static String of(TopologyInfo info) {
        for (ExecutorSummary e : info.get_executors()) {
            return e.get_host();
        }
        return "localhost";
    }

    static int port(TopologyInfo info) {
        for (ExecutorSummary e : info.get_executors()) {
            return e.get_port();
        }
        return 0;
    }
}
