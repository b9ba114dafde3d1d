package org.apache.storm.testing;

import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.Testing;

/**
 * What {@code Testing.completeTopology} runs a topology with: the mocked spout data, the topology's configuration,
 * whether to clear the spouts' and the capture's state afterwards, the topology's name (a fresh one when null) and how
 * long to wait for the spouts to finish. A null passed to a setter means the default.
 *
 * <p>Not thread-safe: set up by the test's thread, then read by {@code completeTopology} on that thread.
 */
public class CompleteTopologyParam {
    private MockedSources mockedSources = new MockedSources();
    private Map<String, Object> stormConf = new Config();
    private boolean cleanupState = true;
    private String topologyName;
    private int timeoutMs = Testing.TEST_TIMEOUT_MS;

    public MockedSources getMockedSources() {
        return mockedSources;
    }

    public void setMockedSources(MockedSources mockedSources) {
        this.mockedSources = mockedSources == null ? new MockedSources() : mockedSources;
    }

    public Map<String, Object> getStormConf() {
        return stormConf;
    }

    public void setStormConf(Map<String, Object> topoConf) {
        this.stormConf = topoConf == null ? new Config() : topoConf;
    }

    public boolean getCleanupState() {
        return cleanupState;
    }

    public void setCleanupState(Boolean cleanupState) {
        this.cleanupState = cleanupState == null || cleanupState;
    }

    public String getTopologyName() {
        return topologyName;
    }

    public void setTopologyName(String topologyName) {
        this.topologyName = topologyName;
    }

    public Integer getTimeoutMs() {
        return timeoutMs;
    }

    public void setTimeoutMs(Integer timeoutMs) {
        this.timeoutMs = timeoutMs == null ? Testing.TEST_TIMEOUT_MS : timeoutMs;
    }
}
