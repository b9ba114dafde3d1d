package io.microburst.dist;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code bin/microburst server} of an {@link Installation}, on ports the system picks (port 0), all on 127.0.0.1; its
 * Thrift port read from the line the server prints once it serves (stored topologies already restored). Threading:
 * the test's thread.
 */
final class RunningServer {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(90);
    private static final Pattern LISTENING = Pattern.compile("Nimbus Thrift on 127\\.0\\.0\\.1:(\\d+)");

    private final Installation.Launched launched;
    private final int thriftPort;

    private RunningServer(Installation.Launched launched, int thriftPort) {
        this.launched = launched;
        this.thriftPort = thriftPort;
    }

    /** Starts the server with its default data folder and waits until it serves. */
    static RunningServer start(Installation installation) throws Exception {
        Installation.Launched launched = installation.launch(Map.of(), "server",
            "-c", "nimbus.thrift.port=0", "-c", "ui.port=0", "-c", "logviewer.port=0");
        AtomicInteger port = new AtomicInteger(-1);
        Await.until("the server to say where it listens", START_TIMEOUT, () -> {
            Matcher listening = LISTENING.matcher(launched.stdout());
            if (listening.find()) {
                port.set(Integer.parseInt(listening.group(1)));
                return true;
            }
            if (!launched.process().isAlive()) {
                fail("the server stopped (exit " + launched.process().exitValue() + "): " + launched.output());
            }
            return false;
        }, launched::output);
        return new RunningServer(launched, port.get());
    }

    int thriftPort() {
        return thriftPort;
    }

    /** What the server printed so far. */
    String output() throws IOException {
        return launched.output();
    }

    /** Stops the server as systemd does (SIGTERM) and returns its exit code once it has exited. */
    int stop() throws Exception {
        launched.process().destroy();
        assertTrue(launched.process().waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS),
            "the server did not exit within " + STOP_TIMEOUT + " of SIGTERM: " + launched.output());
        return launched.process().exitValue();
    }
}
