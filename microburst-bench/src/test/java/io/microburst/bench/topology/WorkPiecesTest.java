package io.microburst.bench.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkPiecesTest {
    @Test
    void splitterSkipsRunsOfSpaces() {
        List<String> words = new ArrayList<>();
        assertEquals(3, WordSplitter.split("  the  old mill ", words::add));
        assertEquals(List.of("the", "old", "mill"), words);
        assertEquals(0, WordSplitter.split("", words::add));
    }

    @Test
    void wordCountsCountPerWord() {
        WordCounts counts = new WordCounts();
        counts.add("a");
        counts.add("b");
        assertEquals(2, counts.add("a"));
        assertEquals(1, counts.get("b"));
        assertEquals(0, counts.get("c"));
        assertEquals(2, counts.distinct());
    }

    @Test
    void corpusIsLoadedFromTheClassPath() {
        List<String> lines = TextCorpus.lines();
        assertTrue(lines.size() >= 20);
        assertTrue(lines.stream().noneMatch(String::isBlank));
    }

    @Test
    void messagesAreHundredDigitsZeroToEight() {
        RandomDigits digits = new RandomDigits(7);
        String a = digits.next();
        assertEquals(RandomDigits.MESSAGE_LENGTH, a.length());
        assertTrue(a.chars().allMatch(c -> c >= '0' && c <= '8'), a);
        assertNotEquals(a, digits.next());
    }

    @Test
    void rollingWindowKeepsOnlyTheNewestAndSortsACopy() {
        RollingWindow window = new RollingWindow(3);
        for (String s : new String[] {"d", "a", "c", "b"}) {
            window.add(s);
        }
        assertEquals(3, window.size());
        assertArrayEquals(new String[] {"a", "b", "c"}, window.sorted());
        window.add("0");
        assertArrayEquals(new String[] {"0", "b", "c"}, window.sorted());
    }

    @Test
    void pacerEmitsOneBurstPerMillisecondAndDropsALongBacklog() {
        Pacer pacer = new Pacer(500);
        long t = 1_000_000_000L;
        assertEquals(500, pacer.due(t));
        assertEquals(0, pacer.due(t + 10));
        assertEquals(500, pacer.due(t + Pacer.PERIOD_NANOS));
        // 3 ms late: the missed bursts come one per call
        long late = t + 4 * Pacer.PERIOD_NANOS;
        int bursts = 0;
        while (pacer.due(late) > 0) {
            bursts++;
        }
        assertEquals(3, bursts);
        // a stall longer than the backlog limit restarts the schedule instead of flooding
        long stalled = late + 10 * Pacer.MAX_BACKLOG_NANOS;
        assertEquals(500, pacer.due(stalled));
        assertEquals(0, pacer.due(stalled));
    }
}
