package io.microburst.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstConfig;
import io.microburst.bench.runtime.RuntimeId;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.junit.jupiter.api.Test;

class WorkloadCatalogTest {
    @Test
    void namesAreUniqueAndQuickIsASubset() {
        List<Workload> all = WorkloadCatalog.all();
        Set<String> names = new HashSet<>();
        all.forEach(w -> assertTrue(names.add(w.name()), "duplicate " + w.name()));
        assertTrue(names.containsAll(WorkloadCatalog.quick().stream().map(Workload::name).toList()));
        assertTrue(WorkloadCatalog.quick().size() < all.size());
    }

    @Test
    void aFamilyNameSelectsEveryParallelismInCatalogOrder() {
        List<String> selected = WorkloadCatalog.select(List.of("rollingsort", "wordcount")).stream().map(Workload::name).toList();
        assertEquals(List.of("wordcount-p1", "wordcount-p2", "wordcount-p3", "wordcount-p4", "rollingsort"), selected);
        assertThrows(IllegalArgumentException.class, () -> WorkloadCatalog.select(List.of("nope")));
    }

    @Test
    void messagingTopologiesHaveTheDescribedShape() {
        StormTopology constIdNull = WorkloadCatalog.byName("const-id-null").orElseThrow().topology();
        assertEquals(Set.of("spout"), constIdNull.get_spouts().keySet());
        assertEquals(Set.of("id", "null"), constIdNull.get_bolts().keySet());
        StormTopology wordCount = WorkloadCatalog.byName("wordcount-p3").orElseThrow().topology();
        assertEquals(3, wordCount.get_bolts().get("count").get_common().get_parallelism_hint());
        assertTrue(wordCount.get_bolts().get("count").get_common().get_inputs().values().iterator().next().is_set_fields());
    }

    @Test
    void ackingIsWhatTheNameSays() {
        assertEquals(0, WorkloadCatalog.byName("const-null").orElseThrow().config().get(Config.TOPOLOGY_ACKER_EXECUTORS));
        Workload mp = WorkloadCatalog.byName("const-null-ack-mp1000").orElseThrow();
        assertEquals(1, mp.config().get(Config.TOPOLOGY_ACKER_EXECUTORS));
        assertEquals(1000, mp.config().get(Config.TOPOLOGY_MAX_SPOUT_PENDING));
        assertFalse(WorkloadCatalog.byName("const-null-ack").orElseThrow().config()
            .containsKey(Config.TOPOLOGY_MAX_SPOUT_PENDING));
        Workload wordCountAcked = WorkloadCatalog.byName("wordcount-ack").orElseThrow();
        assertEquals(1, wordCountAcked.config().get(Config.TOPOLOGY_ACKER_EXECUTORS));
        assertFalse(wordCountAcked.config().containsKey(Config.TOPOLOGY_MAX_SPOUT_PENDING), "Storm's default: unset");
    }

    @Test
    void theSlowBoltIsAChainOfTwoWithAStaticTwin() {
        Workload slow = WorkloadCatalog.byName("slow-bolt").orElseThrow();
        assertEquals("auto", slow.config().get(WorkloadCatalog.PLACEMENT));
        assertEquals(0, slow.config().get(Config.TOPOLOGY_ACKER_EXECUTORS));
        assertEquals(1, slow.topology().get_spouts().size());
        assertTrue(slow.topology().get_bolts().containsKey("fingerprint"));
        assertEquals("static", WorkloadCatalog.byName("slow-bolt-static").orElseThrow().config()
            .get(WorkloadCatalog.PLACEMENT));
    }

    @Test
    void wordCountP1HasATwinThatIsNeverCut() {
        Workload fused = WorkloadCatalog.byName("wordcount-p1-fused").orElseThrow();
        assertEquals(WorkloadVariants.ONE_LAYOUT_MIN_GAIN, fused.config().get(MicroburstConfig.PLACEMENT_MIN_GAIN));
        assertEquals("wordcount-p1", fused.stormTwin());
        assertEquals("wordcount-p1-fused", fused.family(), "no part of the scaling curve");
        assertFalse(WorkloadCatalog.byName("wordcount-p1").orElseThrow().config()
            .containsKey(MicroburstConfig.PLACEMENT_MIN_GAIN));
    }

    @Test
    void unfusedVariantsDifferOnlyInTheFusionSwitch() {
        Workload fused = WorkloadCatalog.byName("const-id-null").orElseThrow();
        Workload unfused = WorkloadCatalog.byName("const-id-null-unfused").orElseThrow();
        assertEquals(false, unfused.config().get(MicroburstConfig.FUSION));
        assertFalse(fused.config().containsKey(MicroburstConfig.FUSION));
        assertEquals(fused.topology(), unfused.topology());
        assertEquals(fused.unit(), unfused.unit());
        assertEquals("const-id-null-unfused", unfused.family());
        assertTrue(RuntimeId.CEILING_SPSC.supports(unfused));
        assertTrue(WorkloadCatalog.byName("const-null-unfused").isPresent());
    }

    @Test
    void ordinaryVariantsRunWithPlacementOnAndOffAndStormRunsOnlyOne() {
        List<String> names = WorkloadCatalog.select(List.of("wordcount-ordinary", "wordcount-ordinary-static",
            "rollingsort-ordinary", "rollingsort-ordinary-static")).stream().map(Workload::name).toList();
        assertEquals(List.of("wordcount-ordinary-p1", "wordcount-ordinary-p1-static", "wordcount-ordinary-p2",
            "wordcount-ordinary-p2-static", "wordcount-ordinary-p4", "wordcount-ordinary-p4-static", "rollingsort-ordinary",
            "rollingsort-ordinary-static"), names);
        Workload auto = WorkloadCatalog.byName("wordcount-ordinary-p2").orElseThrow();
        Workload fixed = WorkloadCatalog.byName("wordcount-ordinary-p2-static").orElseThrow();
        assertEquals("auto", auto.config().get(WorkloadCatalog.PLACEMENT));
        assertEquals("static", fixed.config().get(WorkloadCatalog.PLACEMENT));
        assertEquals(auto.topology(), fixed.topology());
        assertEquals("wordcount-ordinary-static", fixed.family());
        assertEquals(2, fixed.parallelism());
        assertTrue(RuntimeId.STORM.supports(auto));
        assertFalse(RuntimeId.STORM.supports(fixed), "Storm ignores the placement key: it runs the twin only");
        StormTopology wordCount = auto.topology();
        assertEquals(Set.of("split", "count"), wordCount.get_bolts().keySet());
        assertTrue(wordCount.get_bolts().get("count").get_common().get_inputs().values().iterator().next().is_set_fields());
        assertEquals(Set.of("default"), wordCount.get_bolts().get("count").get_common().get_streams().keySet(),
            "the count bolt declares (word, count), which nobody subscribes to");
        assertEquals(0, WorkloadCatalog.byName("rollingsort-ordinary-static").orElseThrow().config()
            .get(Config.TOPOLOGY_ACKER_EXECUTORS));
    }

    @Test
    void automaticParallelismStartsWordCountP4OnOneExecutorEachAndStormRunsTheTwin() {
        Workload auto = WorkloadCatalog.byName("wordcount-ordinary-p4-auto").orElseThrow();
        Workload twin = WorkloadCatalog.byName("wordcount-ordinary-p4").orElseThrow();
        assertEquals("auto", auto.config().get(MicroburstConfig.PARALLELISM));
        assertEquals(2, auto.config().get(MicroburstConfig.PARALLELISM_INTERVAL_SECS));
        assertTrue(auto.minWarmupSeconds() >= 3 * 2 * 2, "three decisions, each after a warm-up and a measured interval");
        assertEquals("wordcount-ordinary-p4", auto.stormTwin());
        assertFalse(RuntimeId.STORM.supports(auto));
        for (String name : List.of("wordcount-ordinary-p4-auto", "wordcount-ordinary-p4-e1", "wordcount-ordinary-p4-e2")) {
            StormTopology t = WorkloadCatalog.byName(name).orElseThrow().topology();
            int executors = name.endsWith("-e2") ? 2 : 1;
            assertEquals(executors, t.get_spouts().get("sentences").get_common().get_parallelism_hint(), name);
            assertEquals(executors, t.get_bolts().get("count").get_common().get_parallelism_hint(), name);
            assertTrue(t.get_bolts().get("split").get_common().get_json_conf().contains("\"topology.tasks\":4"), name);
        }
        assertFalse(WorkloadCatalog.byName("wordcount-ordinary-p4-e2").orElseThrow().config()
            .containsKey(MicroburstConfig.PARALLELISM));
        assertEquals(0, twin.minWarmupSeconds());
    }

    @Test
    void ceilingsExistOnlyWhereTheyDoTheSameWork() {
        Workload spoutOnly = WorkloadCatalog.byName("spout-emit").orElseThrow();
        assertTrue(RuntimeId.CEILING_LOOP.supports(spoutOnly));
        assertFalse(RuntimeId.CEILING_SPSC.supports(spoutOnly));
        assertFalse(RuntimeId.CEILING_LOOP.supports(WorkloadCatalog.byName("const-null-ack").orElseThrow()));
        assertFalse(RuntimeId.CEILING_LOOP.supports(WorkloadCatalog.byName("wordcount-p2").orElseThrow()));
        assertTrue(RuntimeId.MICROBURST.supports(WorkloadCatalog.byName("wordcount-p2").orElseThrow()));
    }

    @Test
    void wordCountCeilingCountsEveryWordOfASentence() {
        CeilingWork work = WorkloadCatalog.byName("wordcount-p1").orElseThrow().ceilingWork();
        String sentence = (String) work.produce();
        assertEquals(sentence.split(" +").length, work.consume(sentence));
    }
}
