package io.microburst.runtime.task;

import java.util.List;
import java.util.Map;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.Fields;

/**
 * The context every tuple of a topology carries. Schema checks happen once per emit in the runtime's collectors
 * (with a message naming the component and stream), so the per-tuple check of local mode is switched off here.
 *
 * <p>Threading: immutable once built; shared by every tuple of the topology, on any thread.
 *
 * <p>Public because the topology ({@code runtime.topology}) makes the one context of a topology that its tuples and
 * links share; immutable once made, any thread.
 */
public final class TupleContext extends GeneralTopologyContext {
    public TupleContext(StormTopology topology, Map<String, Object> conf, Map<Integer, String> taskToComponent,
                        Map<String, List<Integer>> componentToSortedTasks,
                        Map<String, Map<String, Fields>> streamFields, String stormId) {
        super(topology, conf, taskToComponent, componentToSortedTasks, streamFields, stormId);
    }

    @Override
    public boolean doSanityCheck() {
        return false;
    }
}
