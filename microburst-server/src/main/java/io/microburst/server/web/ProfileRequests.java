package io.microburst.server.web;

import io.microburst.server.nimbus.UnsupportedCallException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.ProfileAction;
import org.apache.storm.generated.ProfileRequest;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.thrift.TApplicationException;
import org.apache.storm.thrift.TException;

/**
 * Nimbus' worker profiling calls as Storm's UI and clients make them, done at once by the same {@link Profiler} the
 * REST API's {@code profiling/*} operations use (one worker per topology: the server's own process). In
 * {@code setWorkerProfiler}, {@code JPROFILE_STOP} with a time still to come starts a flight recording that stops then
 * (Storm's UI starts profiling so), and with a past time stops it; {@code JPROFILE_START} starts one until its time,
 * or for ten minutes; {@code JPROFILE_DUMP} copies the recording so far, {@code JSTACK_DUMP} dumps the topology's
 * threads, {@code JMAP_DUMP} the heap; {@code JVM_RESTART} is refused with what to do instead.
 * {@code getComponentPendingProfileActions} answers as Storm's Nimbus: the newest pending request of that action on
 * each of the component's workers, which here is the running recording's {@code JPROFILE_STOP}, since every other
 * action is done before the call returns. Thread-safe (the {@link Profiler} is).
 */
public final class ProfileRequests {
    /** How long a {@code JPROFILE_START} without a time to come records. */
    private static final long DEFAULT_RECORDING_MILLIS = 10 * 60_000L;
    private final Profiler profiler;

    ProfileRequests(Profiler profiler) {
        this.profiler = profiler;
    }

    /** Nimbus' {@code setWorkerProfiler}. */
    public void set(Nimbus.Iface nimbus, String id, ProfileRequest request) throws TException {
        if (request == null || !request.is_set_nodeInfo() || request.get_action() == null) {
            throw new TApplicationException(TApplicationException.UNKNOWN, "setWorkerProfiler of '" + id
                + "': the request needs a nodeInfo (the worker's host and port) and an action");
        }
        TopologyInfo info = info(nimbus, id, "setWorkerProfiler");
        String host = TopologyHost.of(info);
        int port = TopologyHost.port(info);
        NodeInfo node = request.get_nodeInfo();
        if (!node.get_port().contains((long) port)) {
            throw new TApplicationException(TApplicationException.UNKNOWN, "setWorkerProfiler: topology '" + id
                + "' has no worker " + node.get_node() + ":" + node.get_port() + ": its one worker is " + host + ":"
                + port);
        }
        String trusted = info.get_id();
        long now = System.currentTimeMillis();
        long at = request.get_time_stamp();
        try {
            switch (request.get_action()) {
                case JPROFILE_STOP -> {
                    if (at > now) {
                        profiler.startUntil(trusted, host, port, at);
                    } else if (profiler.stopsAt(trusted) != null) {
                        profiler.stop(trusted);
                    }
                }
                case JPROFILE_START -> profiler.startUntil(trusted, host, port, at > now ? at
                    : now + DEFAULT_RECORDING_MILLIS);
                case JPROFILE_DUMP -> profiler.dump(trusted, port);
                case JSTACK_DUMP -> profiler.threadDump(trusted, info.get_name(), port);
                case JMAP_DUMP -> profiler.heapDump(trusted, port);
                case JVM_RESTART -> throw new UnsupportedCallException("setWorkerProfiler JVM_RESTART (the worker of '"
                    + id + "' is the server's own process and cannot restart alone; rebalance the topology, or kill "
                    + "and submit it)");
                default -> throw new TApplicationException(TApplicationException.UNKNOWN, "setWorkerProfiler of '" + id
                    + "': unknown action " + request.get_action());
            }
        } catch (IOException e) {
            throw new TApplicationException(TApplicationException.INTERNAL_ERROR, "setWorkerProfiler "
                + request.get_action() + " of '" + id + "' cannot write its file: " + e.getMessage());
        }
    }

    /** Nimbus' {@code getComponentPendingProfileActions}: empty for a component the topology does not have. */
    public List<ProfileRequest> pending(Nimbus.Iface nimbus, String id, String component, ProfileAction action)
        throws TException {
        TopologyInfo info = info(nimbus, id, "getComponentPendingProfileActions");
        List<ProfileRequest> pending = new ArrayList<>();
        Long stopAt = profiler.stopsAt(info.get_id());
        if (action == ProfileAction.JPROFILE_STOP && stopAt != null && runs(info, component)) {
            ProfileRequest request = new ProfileRequest(new NodeInfo(TopologyHost.of(info),
                Set.of((long) TopologyHost.port(info))), ProfileAction.JPROFILE_STOP);
            request.set_time_stamp(stopAt);
            pending.add(request);
        }
        return pending;
    }

    /**
     * The topology's info; neither call declares {@code NotAliveException}, which Thrift would hand the caller as an
     * anonymous internal error, so an unknown topology is an application error naming it.
     */
    private static TopologyInfo info(Nimbus.Iface nimbus, String id, String call) throws TException {
        try {
            return nimbus.getTopologyInfo(id);
        } catch (NotAliveException e) {
            throw new TApplicationException(TApplicationException.UNKNOWN, call + ": " + e.get_msg());
        }
    }

    private static boolean runs(TopologyInfo info, String component) {
        for (ExecutorSummary executor : info.get_executors()) {
            if (executor.get_component_id().equals(component)) {
                return true;
            }
        }
        return false;
    }
}
