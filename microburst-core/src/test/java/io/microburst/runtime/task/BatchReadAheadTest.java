package io.microburst.runtime.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;

/**
 * A consumer reads a chunk of a batch ahead before executing it: it reads only (the tuples come out as they went in), it
 * covers exactly the chunk asked for, and no values list a user may emit (empty, a null first value, a list of the
 * user's own type) makes it fail.
 */
class BatchReadAheadTest {
    @Test
    void readsTheChunkAskedForAndOnlyIt() {
        Batch b = new Batch(8, null);
        for (int i = 0; i < 6; i++) {
            b.add(null, new Values("word" + i), TaskRunner.UNANCHORED);
        }
        assertEquals(6, b.readAhead(0, 6));
        assertEquals(2, b.readAhead(2, 4));
        assertEquals(0, b.readAhead(4, 4));
    }

    @Test
    void anyValuesListIsReadWithoutFailing() {
        Batch b = new Batch(8, null);
        List<Object> empty = new Values();
        List<Object> nullFirst = new Values((Object) null);
        List<Object> number = new Values(42L);
        List<Object> immutable = List.of("word");
        List<Object> own = Collections.unmodifiableList(new ArrayList<>(List.of("word")));
        for (List<Object> v : List.of(empty, nullFirst, number, immutable, own)) {
            b.add(null, v, TaskRunner.UNANCHORED);
        }
        // only ArrayLists (Storm's Values) are read into, and only a String first value counts
        assertEquals(0, b.readAhead(0, 5));
        assertSame(empty, b.values[0]);
        assertSame(own, b.values[4]);
        assertEquals(5, b.size);
    }
}
