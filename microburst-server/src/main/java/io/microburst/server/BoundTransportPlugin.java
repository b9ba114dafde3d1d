package io.microburst.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.Map;
import org.apache.storm.security.auth.ITransportPlugin;
import org.apache.storm.security.auth.SimpleTransportPlugin;
import org.apache.storm.security.auth.ThriftConnectionType;
import org.apache.storm.thrift.TProcessor;
import org.apache.storm.thrift.protocol.TBinaryProtocol;
import org.apache.storm.thrift.server.THsHaServer;
import org.apache.storm.thrift.server.TServer;
import org.apache.storm.thrift.transport.TNonblockingServerSocket;
import org.apache.storm.thrift.transport.TTransport;
import org.apache.storm.thrift.transport.TTransportException;

/**
 * Storm's unauthenticated Thrift transport (framed binary protocol, as {@link SimpleTransportPlugin} speaks it, so
 * every Storm client connects unchanged) listening on one address, {@value ServerConfig#BIND} (127.0.0.1 by default),
 * instead of on every interface. The server plugs it in as {@code nimbus.thrift.transport} when no authentication is
 * configured; storm-client's {@code ThriftServer} creates and runs it. Frames larger than
 * {@code nimbus.thrift.max_buffer_size} and malformed input close that one connection, nothing more. Calls run on
 * {@link ThriftWorkers}, named after the service, which reuse idle workers and end those left idle.
 */
public final class BoundTransportPlugin implements ITransportPlugin {
    private final SimpleTransportPlugin client = new SimpleTransportPlugin();
    private ThriftConnectionType type;
    private Map<String, Object> conf;
    private int port;

    @Override
    public void prepare(ThriftConnectionType type, Map<String, Object> conf) {
        this.type = type;
        this.conf = conf;
        client.prepare(type, conf);
    }

    @Override
    public TServer getServer(TProcessor processor) throws IOException, TTransportException {
        InetSocketAddress address = new InetSocketAddress(ServerConfig.bind(conf), type.getPort(conf));
        int maxBufferSize = type.getMaxBufferSize(conf);
        // Frames over the limit close their connection; without it Thrift's default (16 MB) applies, and a frame between
        // the two would wait forever for read buffer room, holding its connection and the selector busy.
        TNonblockingServerSocket socket = new TNonblockingServerSocket(address, 0, maxBufferSize);
        port = socket.getPort();
        int threads = type.getNumThreads(conf);
        THsHaServer.Args args = new THsHaServer.Args(socket).processor(processor).maxWorkerThreads(threads)
            .protocolFactory(new TBinaryProtocol.Factory(false, true, maxBufferSize, -1));
        args.maxReadBufferBytes = maxBufferSize;
        String service = type.name().toLowerCase(Locale.ROOT).replace('_', '-');
        args.executorService(ThriftWorkers.create(service, threads, type.getQueueSize(conf)));
        return new THsHaServer(args);
    }

    @Override
    public TTransport connect(TTransport transport, String serverHost, String asUser)
        throws IOException, TTransportException {
        return client.connect(transport, serverHost, asUser);
    }

    @Override
    public int getPort() {
        return port;
    }
}
