package io.microburst.runtime.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.microburst.MicroburstConfig;
import io.microburst.plan.FusionPlan;
import io.microburst.plan.TopologyPlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.testing.TestWordCounter;
import org.apache.storm.testing.TestWordSpout;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

/** How executor groups past the thread budget are dealt out over shared threads (a pure function). */
class ThreadLayoutShareTest {
    private static List<List<ThreadLayout.Member>> groups() throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("words", new TestWordSpout(), 1);
        b.setBolt("count", new TestWordCounter(), 5).setNumTasks(7).fieldsGrouping("words", new Fields("word"));
        b.setBolt("sink", new TestWordCounter(), 3).shuffleGrouping("count");
        Map<String, Object> conf = new HashMap<>(Utils.readDefaultConfig());
        conf.put(MicroburstConfig.FUSION, false);
        TopologyPlan plan = TopologyPlan.build("t", "t-1", conf, b.createTopology());
        return ThreadLayout.groups(plan, FusionPlan.of(plan, 2));
    }

    @Test
    void groupsWithinTheBudgetAreLeftAsTheyAre() throws Exception {
        List<List<ThreadLayout.Member>> groups = groups();
        assertEquals(9, groups.size());
        assertSame(groups, ThreadLayout.share(groups, 9));
    }

    @Test
    void groupsPastTheBudgetAreDealtOutWholeAndEachComponentSpreads() throws Exception {
        List<List<ThreadLayout.Member>> groups = groups();
        List<List<ThreadLayout.Member>> shared = ThreadLayout.share(groups, 3);
        assertEquals(3, shared.size());
        List<Integer> tasks = new ArrayList<>();
        for (List<ThreadLayout.Member> carrier : shared) {
            for (ThreadLayout.Member m : carrier) {
                tasks.add(m.taskId());
            }
        }
        tasks.sort(null);
        // task 1 is Storm's acker's: reserved, never run
        assertEquals(List.of(2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), tasks, "every task once");
        for (List<ThreadLayout.Member> group : groups) {
            long holders = shared.stream().filter(c -> c.containsAll(group)).count();
            assertEquals(1, holders, "an executor's tasks stay together: " + group);
        }
        for (List<ThreadLayout.Member> carrier : shared) {
            long counts = carrier.stream().filter(m -> m.component().id().equals("count"))
                .map(m -> m.component().executorOf(m.taskId())).distinct().count();
            assertEquals(true, counts == 1 || counts == 2, "5 executors over 3 threads: 1 or 2 each");
        }
    }

    @Test
    void theDefaultBudgetLeavesRoomForEveryCore() {
        assertEquals(64, ThreadLayout.threadBudget(Map.of(), 2));
        assertEquals(128, ThreadLayout.threadBudget(Map.of(), 16));
        assertEquals(5, ThreadLayout.threadBudget(Map.of(MicroburstConfig.EXECUTOR_THREADS_MAX, 5), 16));
    }
}
