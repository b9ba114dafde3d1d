package io.microburst.plan;

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.daemon.StormCommon;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.shade.net.minidev.json.JSONValue;

/**
 * Task ids numbered by Storm itself: storm-client's {@link StormCommon#stormTaskInfo} over the topology with each
 * component's task count written into its configuration, as Storm's Nimbus does before numbering. Storm numbers the
 * components it adds to every topology ({@code __acker}, {@code __eventlogger}, one {@code __metrics...} per registered
 * metrics consumer) among the user's, in sorted component order, so a user's task ids are the ones Storm gives them.
 * Microburst runs no acker or event logger tasks: their ids are only reserved.
 *
 * <p>Threading: stateless; any thread.
 */
final class StormTaskIds {
    /** Defaults for the keys Storm's numbering reads, for a configuration without Storm's defaults merged in. */
    private static final Map<String, Object> NUMBERING_DEFAULTS = Map.of(
        Config.TOPOLOGY_WORKERS, 1,
        Config.TOPOLOGY_EVENTLOGGER_EXECUTORS, 0,
        Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 30);

    private StormTaskIds() {
    }

    /**
     * Storm's task id to component map for {@code topology} run with {@code conf}, or null when Storm cannot number it
     * (a configuration its numbering cannot read, such as a malformed metrics consumer registration; the plan then
     * reports the problem itself and numbers only the user's tasks).
     *
     * @param tasks each user component's task count, as planned
     */
    static Map<Integer, String> number(StormTopology topology, Map<String, Object> conf, Map<String, Integer> tasks) {
        try {
            StormTopology normalized = topology.deepCopy();
            for (Map.Entry<String, Object> e : StormCommon.allComponents(normalized).entrySet()) {
                Map<String, Object> componentConf = StormCommon.componentConf(e.getValue());
                componentConf.put(Config.TOPOLOGY_TASKS, tasks.get(e.getKey()));
                StormCommon.getComponentCommon(e.getValue()).set_json_conf(JSONValue.toJSONString(componentConf));
            }
            Map<String, Object> numberingConf = new HashMap<>(conf);
            NUMBERING_DEFAULTS.forEach(numberingConf::putIfAbsent);
            return StormCommon.stormTaskInfo(normalized, numberingConf);
        } catch (Exception | LinkageError e) {
            return null;
        }
    }
}
