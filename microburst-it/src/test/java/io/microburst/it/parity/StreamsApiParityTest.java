package io.microburst.it.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.it.support.FixedTuplesSpout;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.Topologies;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.streams.Pair;
import org.apache.storm.streams.Stream;
import org.apache.storm.streams.StreamBuilder;
import org.apache.storm.streams.operations.mappers.ValueMapper;
import org.apache.storm.streams.windowing.TumblingWindows;
import org.apache.storm.topology.base.BaseWindowedBolt.Count;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;

/**
 * Storm's Streams API ({@code org.apache.storm.streams}: flatMap, filter, map, branch, mapToPair and a keyed reduce
 * over a count window) compiles to ordinary bolts and gives the same results on both runtimes.
 */
class StreamsApiParityTest extends ParityTestSupport {
    private static final List<String> SENTENCES = List.of("the cow jumped over the moon", "the man went to the store",
        "four score and seven years ago");

    @Test
    void wordCountWithTheStreamsApiGivesTheSameCountsOnBothRuntimes() throws Exception {
        Map<String, Run> runs = runOnBoth("streams", StreamsApiParityTest::topology, Topologies.baseConf(),
            events -> events.stream().filter(e -> e instanceof String s && s.startsWith("count ")).count() >= 15
                && events.stream().filter(e -> e instanceof String s && s.startsWith("long ")).count() >= 5
                && events.stream().filter(e -> e instanceof String s && s.startsWith("short ")).count() >= 13,
            Duration.ofSeconds(60));
        Map<String, List<String>> results = new TreeMap<>();
        for (Run run : runs.values()) {
            List<String> events = new ArrayList<>();
            run.events().stream().filter(String.class::isInstance).forEach(e -> events.add((String) e));
            events.sort(null);
            results.put(run.runtime(), events);
        }
        assertEquals(results.get("storm"), results.get("microburst"));
        assertEquals(List.of("count (AGO, 1)", "count (AND, 1)", "count (COW, 1)", "count (FOUR, 1)", "count (JUMPED, 1)",
            "count (MAN, 1)", "count (MOON, 1)", "count (OVER, 1)", "count (SCORE, 1)", "count (SEVEN, 1)",
            "count (STORE, 1)", "count (THE, 4)", "count (TO, 1)", "count (WENT, 1)", "count (YEARS, 1)",
            "long jumped", "long score", "long seven", "long store", "long years"), results.get("microburst").stream()
            .filter(e -> !e.startsWith("short ")).toList());
    }

    @SuppressWarnings("unchecked")
    private static StormTopology topology(String scope) {
        List<List<Object>> tuples = new ArrayList<>();
        SENTENCES.forEach(s -> tuples.add(List.of(s)));
        int words = SENTENCES.stream().mapToInt(s -> s.split(" ").length).sum();
        StreamBuilder builder = new StreamBuilder();
        Stream<String>[] byLength = builder.newStream(FixedTuplesSpout.of(scope, new Fields("sentence"), tuples),
                new ValueMapper<String>(0))
            .flatMap(s -> Arrays.asList(s.split(" ")))
            .filter(w -> !w.isEmpty())
            .branch(w -> w.length() > 4, w -> w.length() <= 4);
        byLength[0].forEach(w -> Recorder.record(scope, "long " + w));
        byLength[1].forEach(w -> Recorder.record(scope, "short " + w));
        builder.newStream(FixedTuplesSpout.of(scope, new Fields("sentence"), tuples), new ValueMapper<String>(0))
            .flatMap(s -> Arrays.asList(s.split(" ")))
            .map(String::toUpperCase)
            .mapToPair(w -> Pair.of(w, 1))
            .reduceByKeyAndWindow((a, b) -> a + b, TumblingWindows.of(Count.of(words)))
            .forEach(p -> Recorder.record(scope, "count " + p));
        return builder.build();
    }
}
