package io.microburst.bench.topology.ordinary;

import io.microburst.bench.probe.Probes;
import io.microburst.bench.probe.TaskCounter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;

/**
 * RollingSort's bolt as users write it: keeps the last 100 messages in a deque and sorts a copy of them on every tick
 * tuple (each second). Task thread only.
 */
public final class RollingSortBolt extends BaseBasicBolt {
    private static final long serialVersionUID = 1L;
    /** Messages kept. */
    public static final int WINDOW = 100;
    private transient Deque<String> window;
    private transient TaskCounter received;
    /** The window as sorted at the last tick, kept so that the sort is not dead code. */
    private transient List<String> lastSorted;

    @Override
    public void prepare(Map<String, Object> topoConf, TopologyContext context) {
        this.window = new ArrayDeque<>(WINDOW);
        this.received = Probes.newTaskCounter();
        this.lastSorted = List.of();
    }

    @Override
    public void execute(Tuple input, BasicOutputCollector collector) {
        if (TupleUtils.isTick(input)) {
            List<String> sorted = new ArrayList<>(window);
            Collections.sort(sorted);
            lastSorted = sorted;
            return;
        }
        if (window.size() == WINDOW) {
            window.removeFirst();
        }
        window.addLast(input.getString(0));
        received.increment();
    }

    @Override
    public Map<String, Object> getComponentConfiguration() {
        return Map.of(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 1);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        // the sorted window stays in the task
    }
}
