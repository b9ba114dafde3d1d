package org.apache.storm;

import java.util.Map;
import org.apache.storm.generated.SubmitOptions;
import org.apache.storm.testing.TrackedTopology;
import org.apache.storm.thrift.TException;

/**
 * A local cluster that also takes a {@link TrackedTopology} to submit, as storm-server's interface of this name
 * declares; {@link LocalCluster} implements it.
 *
 * <p>Threading: as the implementation's.
 */
public interface ILocalClusterTrackedTopologyAware extends ILocalCluster {

    /** Submits the tracked topology's instrumented topology. */
    ILocalTopology submitTopology(String topologyName, Map<String, Object> conf, TrackedTopology topology) throws TException;

    /** As {@link #submitTopology(String, Map, TrackedTopology)}, with submit options. */
    ILocalTopology submitTopologyWithOpts(String topologyName, Map<String, Object> conf, TrackedTopology topology,
                                          SubmitOptions submitOpts) throws TException;
}
