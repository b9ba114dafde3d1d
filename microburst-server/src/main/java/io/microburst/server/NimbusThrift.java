package io.microburst.server;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.security.auth.ThriftConnectionType;
import org.apache.storm.security.auth.ThriftServer;

/**
 * The Nimbus Thrift service on {@code nimbus.thrift.port}: storm-client's {@link ThriftServer} serving a
 * {@link ServerNimbus} on its own thread ({@code microburst-thrift}). The constructor returns once it accepts
 * connections; {@link #close()} stops it. Any thread.
 */
final class NimbusThrift implements AutoCloseable {
    private final ThriftServer thrift;
    private final Thread thread;

    /** Serves {@code nimbus}, which learns the port it is advertised on before the first call. */
    NimbusThrift(Map<String, Object> conf, ServerNimbus nimbus) throws InterruptedException {
        this.thrift = new ThriftServer(conf, new Nimbus.Processor<>(ThriftErrors.wrap(nimbus)),
            ThriftConnectionType.NIMBUS);
        nimbus.advertisedPort(thrift.getPort());
        this.thread = new Thread(thrift::serve, "microburst-thrift");
        thread.start();
        try {
            awaitServing();
        } catch (InterruptedException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private void awaitServing() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!thrift.isServing()) {
            if (System.nanoTime() - deadline > 0 || !thread.isAlive()) {
                throw new IllegalStateException("the Nimbus Thrift service did not start");
            }
            Thread.sleep(10);
        }
    }

    int port() {
        return thrift.getPort();
    }

    /** Stops serving; waits up to 10 s for the serving thread to end. */
    @Override
    public void close() {
        thrift.stop();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
