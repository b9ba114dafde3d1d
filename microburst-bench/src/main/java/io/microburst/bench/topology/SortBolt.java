package io.microburst.bench.topology;

import io.microburst.bench.probe.Probes;
import io.microburst.bench.probe.TaskCounter;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;

/**
 * Keeps the last 100 messages and sorts them on every tick tuple (each second); counts the messages it receives.
 * Task thread only.
 */
public final class SortBolt extends BaseRichBolt {
    private static final long serialVersionUID = 1L;
    /** Messages kept, as in the thesis' RollingSort. */
    public static final int WINDOW = 100;
    /** Seconds between sorts. */
    public static final int TICK_SECS = 1;

    private transient OutputCollector collector;
    private transient RollingWindow window;
    private transient TaskCounter received;
    private transient long sorts;

    @Override
    public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.window = new RollingWindow(WINDOW);
        this.received = Probes.newTaskCounter();
    }

    @Override
    public void execute(Tuple input) {
        if (TupleUtils.isTick(input)) {
            sorts += window.sorted().length > 0 ? 1 : 0;
        } else {
            window.add(input.getString(0));
            received.increment();
        }
        collector.ack(input);
    }

    @Override
    public Map<String, Object> getComponentConfiguration() {
        return Map.of(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, TICK_SECS);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        // the sorted window stays in the task
    }
}
