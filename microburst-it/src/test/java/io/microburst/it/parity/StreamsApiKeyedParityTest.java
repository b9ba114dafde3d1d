package io.microburst.it.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.it.support.Await;
import io.microburst.it.support.FixedTuplesSpout;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.Topologies;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.streams.Pair;
import org.apache.storm.streams.PairStream;
import org.apache.storm.streams.Stream;
import org.apache.storm.streams.StreamBuilder;
import org.apache.storm.streams.operations.mappers.PairValueMapper;
import org.apache.storm.streams.operations.mappers.ValueMapper;
import org.apache.storm.streams.windowing.TumblingWindows;
import org.apache.storm.topology.base.BaseWindowedBolt.Count;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;

/**
 * Storm's Streams API ({@code org.apache.storm.streams}) keyed operations give the same results on both runtimes: word count
 * with running and windowed counts by key ({@code countByKey}), and a windowed join (StreamsApiParityTest covers the rest).
 */
class StreamsApiKeyedParityTest extends ParityTestSupport {
    private static final List<String> SENTENCES = List.of("the cow jumped over the moon", "an apple a day",
        "the moon and the cow", "a day over the moon");

    /** One result a Streams API sink saw. */
    record Seen(String what) {
    }

    @Test
    void wordCountWithRunningAndWindowedCounts() throws Exception {
        List<String> all = new ArrayList<>();
        SENTENCES.forEach(s -> all.addAll(Arrays.asList(s.split(" "))));
        long windowed = 0; // one count per distinct word of each full window of 4
        for (int w = 0; w + 4 <= all.size(); w += 4) {
            windowed += all.subList(w, w + 4).stream().distinct().count();
        }
        long perWindow = windowed;
        Map<String, Run> runs = runOnBoth("streams-wordcount", StreamsApiKeyedParityTest::wordCount, Topologies.baseConf(),
            events -> count(events, "running ") == all.size() && count(events, "window ") == perWindow, Await.DEFAULT_LIMIT);
        Map<String, Long> expected = new TreeMap<>();
        for (String s : SENTENCES) {
            for (String w : s.split(" ")) {
                expected.merge(w, 1L, Long::sum);
            }
        }
        for (Run run : runs.values()) {
            Map<String, Long> finals = new TreeMap<>();
            for (String seen : seen(run, "running ")) {
                String[] kv = seen.substring("running ".length()).split("=");
                finals.merge(kv[0], Long.parseLong(kv[1]), Math::max);
            }
            assertEquals(expected, finals, run.runtime() + ": running counts by key");
        }
        assertEquals(seen(runs.get("storm"), "running "), seen(runs.get("microburst"), "running "), "every running count");
        assertEquals(seen(runs.get("storm"), "window "), seen(runs.get("microburst"), "window "), "windowed counts");
    }

    @Test
    void windowedJoinPairsValuesByKey() throws Exception {
        Map<String, Run> runs = runOnBoth("streams-join", StreamsApiKeyedParityTest::joined, Topologies.baseConf(),
            events -> count(events, "join ") == 3, Await.DEFAULT_LIMIT);
        for (Run run : runs.values()) {
            assertEquals(List.of("join 1=(one, 10)", "join 2=(two, 20)", "join 3=(three, 30)"), seen(run, "join "),
                run.runtime());
        }
    }

    private static long count(List<Object> events, String prefix) {
        return events.stream().filter(e -> e instanceof Seen s && s.what().startsWith(prefix)).count();
    }

    private static List<String> seen(Run run, String prefix) {
        List<String> all = new ArrayList<>();
        for (Seen s : run.all(Seen.class)) {
            if (s.what().startsWith(prefix)) {
                all.add(s.what());
            }
        }
        all.sort(null);
        return all;
    }

    private static StormTopology wordCount(String scope) {
        List<List<Object>> lines = new ArrayList<>();
        for (String s : SENTENCES) {
            lines.add(List.of(s));
        }
        StreamBuilder builder = new StreamBuilder();
        Stream<String> words = builder.newStream(FixedTuplesSpout.of(scope, new Fields("line"), lines),
            new ValueMapper<String>(0)).flatMap(line -> Arrays.asList(line.split(" ")));
        words.mapToPair(w -> Pair.of(w, 1)).countByKey()
            .forEach(p -> Recorder.record(scope, new Seen("running " + p.getFirst() + "=" + p.getSecond())));
        words.window(TumblingWindows.of(Count.of(4))).mapToPair(w -> Pair.of(w, 1)).countByKey()
            .forEach(p -> Recorder.record(scope, new Seen("window " + p.getFirst() + "=" + p.getSecond())));
        return builder.build();
    }

    private static StormTopology joined(String scope) {
        StreamBuilder builder = new StreamBuilder();
        PairStream<Integer, String> names = builder.newStream(FixedTuplesSpout.of(scope, new Fields("k", "v"),
            List.of(List.of(1, "one"), List.of(2, "two"), List.of(3, "three"))), new PairValueMapper<Integer, String>(0, 1));
        PairStream<Integer, Integer> tens = builder.newStream(FixedTuplesSpout.of(scope, new Fields("k", "v"),
            List.of(List.of(1, 10), List.of(2, 20), List.of(3, 30))), new PairValueMapper<Integer, Integer>(0, 1));
        // one window holds all six tuples, so what it joins does not depend on how the two spouts interleave
        names.window(TumblingWindows.of(Count.of(6))).join(tens)
            .forEach(p -> Recorder.record(scope, new Seen("join " + p.getFirst() + "=" + p.getSecond())));
        return builder.build();
    }
}
