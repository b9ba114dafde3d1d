package io.microburst.it.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.microburst.it.support.CollectingBolt;
import io.microburst.it.support.FixedTuplesSpout;
import io.microburst.it.support.Received;
import io.microburst.it.support.Topologies;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.task.ShellBolt;
import org.apache.storm.topology.IRichBolt;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;

/**
 * Multi-lang bolts in Storm's documented layout: the scripts and Storm's own adapters (storm.py, storm.js from Storm's
 * multilang artifacts) sit in the top-level {@code resources/} folder, and the bolt names the script relative to it,
 * as {@code new ShellBolt("python3", "splitsentence.py")} does in Storm's examples. Both runtimes start the
 * subprocess in that folder and give the same words.
 */
class MultiLangParityTest extends ParityTestSupport {
    private static final List<String> SENTENCES = List.of("the cow jumped over the moon", "an apple a day",
        "four score and seven years ago");

    /** A shell bolt as users write one: a subclass naming the interpreter and the script. */
    public static class SplitSentence extends ShellBolt implements IRichBolt {
        public SplitSentence(String... command) {
            super(command);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word"));
        }

        @Override
        public Map<String, Object> getComponentConfiguration() {
            return null;
        }
    }

    @Test
    void pythonBoltWithStormPyRunsInTheResourcesFolder() throws Exception {
        assumeTrue(available("python3", "--version"), "python3 is not installed (Debian: apt-get install python3)");
        assertSameWords("python", "python3", "split_sentence.py");
    }

    @Test
    void nodeBoltWithStormJsRunsInTheResourcesFolder() throws Exception {
        assumeTrue(available("node", "--version"), "node is not installed (Debian: apt-get install nodejs)");
        assertSameWords("node", "node", "split_sentence.js");
    }

    private void assertSameWords(String label, String... command) throws Exception {
        int words = SENTENCES.stream().mapToInt(s -> s.split(" ").length).sum();
        Map<String, Run> runs = runFiniteOnBoth("multilang-" + label, scope -> topology(scope, command),
            Topologies.baseConf(), words);
        List<String> expected = new ArrayList<>();
        SENTENCES.forEach(s -> expected.addAll(List.of(s.split(" "))));
        expected.sort(null);
        for (Run run : runs.values()) {
            assertEquals(expected, words(run), "words split by the " + label + " bolt on " + run.runtime());
        }
    }

    private static StormTopology topology(String scope, String... command) {
        List<List<Object>> tuples = new ArrayList<>();
        SENTENCES.forEach(s -> tuples.add(List.of(s)));
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("sentences", FixedTuplesSpout.of(scope, new Fields("sentence"), tuples));
        builder.setBolt("split", new SplitSentence(command)).shuffleGrouping("sentences");
        builder.setBolt("sink", new CollectingBolt(scope)).shuffleGrouping("split");
        return builder.createTopology();
    }

    private static List<String> words(Run run) {
        List<String> words = new ArrayList<>();
        for (Received r : run.receivedBy("sink")) {
            words.add((String) r.values().get(0));
        }
        words.sort(null);
        return words;
    }

    private static boolean available(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }
}
