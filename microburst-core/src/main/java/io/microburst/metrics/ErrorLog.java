package io.microburst.metrics;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.ErrorInfo;

/** The most recent errors reported by each component's tasks, as getTopologyInfo shows them. Thread-safe. */
public final class ErrorLog {
    private static final int KEEP_PER_COMPONENT = 10;
    private final Map<String, Deque<ErrorInfo>> byComponent = new HashMap<>();
    private final String host;
    private final int port;

    public ErrorLog(String host, int port) {
        this.host = host;
        this.port = port;
    }

    /** Records an error with its stack trace, the reporting task and the time. */
    public void add(String componentId, int taskId, Throwable error) {
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));
        add(componentId, taskId, trace.toString());
    }

    /** Records an error of the runtime's own about a task (no stack trace: the message says it all). */
    public synchronized void add(String componentId, int taskId, String message) {
        ErrorInfo info = new ErrorInfo("task " + taskId + ": " + message, (int) (System.currentTimeMillis() / 1000));
        info.set_host(host);
        info.set_port(port);
        Deque<ErrorInfo> errors = byComponent.computeIfAbsent(componentId, k -> new ArrayDeque<>());
        errors.addLast(info);
        while (errors.size() > KEEP_PER_COMPONENT) {
            errors.removeFirst();
        }
    }

    public synchronized Map<String, List<ErrorInfo>> snapshot() {
        Map<String, List<ErrorInfo>> copy = new HashMap<>();
        byComponent.forEach((k, v) -> copy.put(k, new ArrayList<>(v)));
        return copy;
    }
}
