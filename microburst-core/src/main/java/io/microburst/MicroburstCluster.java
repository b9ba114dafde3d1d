package io.microburst;

import java.util.List;
import java.util.Map;
import org.apache.storm.ILocalCluster;
import org.apache.storm.cluster.IStormClusterState;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.Credentials;
import org.apache.storm.generated.GetInfoOptions;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.SubmitOptions;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologySummary;

/** Placeholder: the engine lands in the next commits. */
public final class MicroburstCluster implements ILocalCluster {
    public MicroburstCluster() { }
    public MicroburstCluster(Map<String, Object> clusterConf) { }
    private static UnsupportedOperationException todo() { return new UnsupportedOperationException("not yet"); }
    @Override public ILocalTopology submitTopology(String n, Map<String, Object> c, StormTopology t) { throw todo(); }
    @Override public ILocalTopology submitTopologyWithOpts(String n, Map<String, Object> c, StormTopology t, SubmitOptions o) { throw todo(); }
    @Override public void uploadNewCredentials(String n, Credentials c) { throw todo(); }
    @Override public void killTopology(String n) { throw todo(); }
    @Override public void killTopologyWithOpts(String n, KillOptions o) { throw todo(); }
    @Override public void activate(String n) { throw todo(); }
    @Override public void deactivate(String n) { throw todo(); }
    @Override public void rebalance(String n, RebalanceOptions o) { throw todo(); }
    @Override public void shutdown() { close(); }
    @Override public String getTopologyConf(String id) { throw todo(); }
    @Override public StormTopology getTopology(String id) { throw todo(); }
    @Override public ClusterSummary getClusterInfo() { throw todo(); }
    @Override public List<TopologySummary> getTopologySummaries() { throw todo(); }
    @Override public TopologySummary getTopologySummaryByName(String n) { throw todo(); }
    @Override public TopologySummary getTopologySummary(String id) { throw todo(); }
    @Override public TopologyInfo getTopologyInfo(String id) { throw todo(); }
    @Override public TopologyInfo getTopologyInfoByName(String n) { throw todo(); }
    @Override public TopologyInfo getTopologyInfoWithOpts(String id, GetInfoOptions o) { throw todo(); }
    @Override public TopologyInfo getTopologyInfoByNameWithOpts(String n, GetInfoOptions o) { throw todo(); }
    @Override public IStormClusterState getClusterState() { throw todo(); }
    @Override public void advanceClusterTime(int secs) { throw todo(); }
    @Override public void advanceClusterTime(int secs, int steps) { throw todo(); }
    @Override public String getTrackedId() { throw todo(); }
    @Override public void close() { }
}
