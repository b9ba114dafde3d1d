package io.microburst.drpc;

import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.ILocalDRPC;
import org.apache.storm.generated.DRPCExceptionType;
import org.apache.storm.generated.DRPCExecutionException;
import org.apache.storm.generated.DRPCRequest;
import org.apache.storm.utils.DRPCClient;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.ServiceRegistry;
import org.apache.storm.utils.Utils;

/**
 * A DRPC server inside this process, for topologies that serve distributed RPC ({@code DRPCSpout} and
 * {@code ReturnResults}, {@code LinearDRPCTopologyBuilder}, Trident's {@code newDRPCStream}); use it where Storm's
 * local mode uses {@code LocalDRPC}. Pass it to {@code new DRPCSpout(function, drpc)} or
 * {@code newDRPCStream(function, drpc)}, or install it with {@link DRPCClient.LocalOverride} (as {@code microburst
 * local} does) so that spouts built without one, and {@code DRPCClient.getConfiguredClient}, use it.
 *
 * <p>{@link #execute} blocks its caller until a topology returns the result, fails the request, or
 * {@code drpc.request.timeout.secs} pass (Storm's default: 600). It starts no thread and opens no socket: spouts find it
 * through storm-client's {@link ServiceRegistry} by {@link #getServiceId()}. Thread-safe.
 */
public final class InProcessDrpc implements ILocalDRPC {
    /** Storm's key for how long a DRPC request may wait for its result. */
    public static final String REQUEST_TIMEOUT_SECS = "drpc.request.timeout.secs";
    private static final DRPCRequest NO_REQUEST = new DRPCRequest("", "");

    private final String serviceId;
    private final long timeoutMillis;
    private final AtomicLong nextId = new AtomicLong();
    private final Map<String, Queue<DRPCRequest>> waitingByFunction = new ConcurrentHashMap<>();
    private final Map<String, Outstanding> outstanding = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** A server whose request timeout is Storm's configured {@code drpc.request.timeout.secs}. */
    public InProcessDrpc() {
        this(ObjectReader.getInt(Utils.readStormConfig().get(REQUEST_TIMEOUT_SECS), 600));
    }

    /** A server whose requests fail with {@code SERVER_TIMEOUT} after {@code requestTimeoutSecs}. */
    public InProcessDrpc(int requestTimeoutSecs) {
        if (requestTimeoutSecs < 1) {
            throw new IllegalArgumentException("DRPC request timeout must be at least 1 second, got " + requestTimeoutSecs);
        }
        this.timeoutMillis = TimeUnit.SECONDS.toMillis(requestTimeoutSecs);
        this.serviceId = ServiceRegistry.registerService(this);
    }

    @Override
    public String getServiceId() {
        return serviceId;
    }

    /** Queues the request for {@code functionName}'s spouts and waits for its result. */
    @Override
    public String execute(String functionName, String funcArgs) throws DRPCExecutionException {
        if (functionName == null) {
            throw new IllegalArgumentException("DRPC function name cannot be null");
        }
        if (closed) {
            throw failure(DRPCExceptionType.SERVER_SHUTDOWN, "DRPC server is closed");
        }
        String id = Long.toString(nextId.incrementAndGet());
        CompletableFuture<String> result = new CompletableFuture<>();
        outstanding.put(id, new Outstanding(functionName, result));
        DRPCRequest request = new DRPCRequest(funcArgs, id);
        Queue<DRPCRequest> waiting = waitingByFunction.computeIfAbsent(functionName, f -> new ConcurrentLinkedQueue<>());
        waiting.add(request);
        if (closed) {
            result.completeExceptionally(failure(DRPCExceptionType.SERVER_SHUTDOWN, "DRPC server closed"));
        }
        try {
            return result.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw failure(DRPCExceptionType.SERVER_TIMEOUT, "Request " + id + " of function '" + functionName
                + "' timed out after " + timeoutMillis / 1000 + " s");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof DRPCExecutionException failed) {
                throw failed;
            }
            throw failure(DRPCExceptionType.INTERNAL_ERROR, String.valueOf(e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure(DRPCExceptionType.INTERNAL_ERROR, "Interrupted while waiting for request " + id);
        } finally {
            waiting.remove(request);
            outstanding.remove(id);
        }
    }

    /** The oldest request for {@code functionName} not yet handed out, or one with an empty id when there is none. */
    @Override
    public DRPCRequest fetchRequest(String functionName) {
        Queue<DRPCRequest> waiting = waitingByFunction.get(functionName);
        DRPCRequest request = waiting == null ? null : waiting.poll();
        return request == null ? NO_REQUEST : request;
    }

    /** The function of a request still waiting for its result, or null once it ended (or was never made). */
    public String functionOf(String id) {
        Outstanding waiting = outstanding.get(id);
        return waiting == null ? null : waiting.function();
    }

    /** Completes a request; a result for a request that already ended (timed out, failed) is ignored, as in Storm. */
    @Override
    public void result(String id, String result) {
        Outstanding waiting = outstanding.get(id);
        if (waiting != null) {
            waiting.result().complete(result);
        }
    }

    @Override
    public void failRequest(String id) {
        failRequestV2(id, null);
    }

    @Override
    public void failRequestV2(String id, DRPCExecutionException e) {
        Outstanding waiting = outstanding.get(id);
        if (waiting != null) {
            waiting.result().completeExceptionally(e != null ? e : failure(DRPCExceptionType.FAILED_REQUEST, "Request failed"));
        }
    }

    /** Fails every outstanding request with {@code SERVER_SHUTDOWN} and leaves the service registry. */
    @Override
    public void close() {
        closed = true;
        ServiceRegistry.unregisterService(serviceId);
        for (Outstanding waiting : outstanding.values()) {
            waiting.result().completeExceptionally(failure(DRPCExceptionType.SERVER_SHUTDOWN, "DRPC server closed"));
        }
    }

    @Override
    @Deprecated
    public void shutdown() {
        close();
    }

    private record Outstanding(String function, CompletableFuture<String> result) {
    }

    private static DRPCExecutionException failure(DRPCExceptionType type, String message) {
        DRPCExecutionException e = new DRPCExecutionException(message);
        e.set_type(type);
        return e;
    }
}
