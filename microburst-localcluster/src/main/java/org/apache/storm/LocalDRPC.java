package org.apache.storm;

import io.microburst.drpc.InProcessDrpc;
import org.apache.storm.generated.AuthorizationException;
import org.apache.storm.generated.DRPCExecutionException;
import org.apache.storm.generated.DRPCRequest;
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.thrift.TException;

/**
 * Storm's in-process DRPC server, with storm-server's signatures, served by Microburst's {@link InProcessDrpc}: pass
 * it to {@code new DRPCSpout(function, drpc)}, {@code LinearDRPCTopologyBuilder.createLocalTopology(drpc)} or
 * Trident's {@code newDRPCStream(function, drpc)}, and call {@link #execute}. Requests wait up to
 * {@code drpc.request.timeout.secs} (Storm's configuration).
 *
 * <p>Thread-safe.
 */
public class LocalDRPC implements ILocalDRPC {
    private final InProcessDrpc drpc = new InProcessDrpc();

    public LocalDRPC() {
    }

    /** As {@link #LocalDRPC()}: the registry is not used (Microburst's DRPC keeps no daemon metrics). */
    public LocalDRPC(StormMetricsRegistry metricsRegistry) {
    }

    @Override
    public String getServiceId() {
        return drpc.getServiceId();
    }

    @Override
    public void result(String id, String result) throws AuthorizationException, TException {
        drpc.result(id, result);
    }

    /** Waits for the topology serving {@code functionName} to answer. */
    @Override
    public String execute(String functionName, String funcArgs) throws DRPCExecutionException, AuthorizationException,
        TException {
        return drpc.execute(functionName, funcArgs);
    }

    @Override
    public void failRequest(String id) throws AuthorizationException, TException {
        drpc.failRequest(id);
    }

    @Override
    public void failRequestV2(String id, DRPCExecutionException e) throws AuthorizationException, TException {
        drpc.failRequestV2(id, e);
    }

    @Override
    public DRPCRequest fetchRequest(String functionName) throws AuthorizationException, TException {
        return drpc.fetchRequest(functionName);
    }

    /** Fails the requests still waiting and leaves the service registry. */
    @Override
    public void close() {
        drpc.close();
    }

    @Override
    public void shutdown() {
        close();
    }
}
