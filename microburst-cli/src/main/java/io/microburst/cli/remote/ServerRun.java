package io.microburst.cli.remote;

import io.microburst.cli.Command;
import io.microburst.server.MicroburstServer;
import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;

/**
 * {@code microburst server}: starts a {@link MicroburstServer}, says where it listens, and serves until the JVM is
 * asked to stop (Ctrl-C, SIGTERM), when a shutdown hook closes it; the topologies stay stored for the next start.
 */
public final class ServerRun {
    private final Command.Server command;
    private final PrintStream out;

    public ServerRun(Command.Server command, PrintStream out) {
        this.command = command;
        this.out = out;
    }

    /** Serves until the JVM stops; returns only if interrupted. */
    public int run() throws Exception {
        MicroburstServer server = MicroburstServer.start(command.conf());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "microburst-server-shutdown"));
        out.println("microburst server: Nimbus Thrift on " + server.host() + ":" + server.thriftPort()
            + ", pages, Storm UI REST API and /metrics on http://" + server.host() + ":" + server.uiPort()
            + "/, topologies stored in " + server.dataDir());
        stopped.await();
        return 0;
    }
}
