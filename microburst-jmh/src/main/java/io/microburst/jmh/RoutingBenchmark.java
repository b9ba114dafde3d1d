package io.microburst.jmh;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import io.microburst.routing.FieldsGrouper;
import io.microburst.routing.FixedGrouper;
import io.microburst.routing.Grouper;
import io.microburst.routing.ShuffleGrouper;
import org.apache.storm.tuple.Values;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of choosing the consumer tasks of one tuple: the call every emit makes once per subscription.
 *
 * <p>Each invocation routes the next tuple of a pool of {@value #POOL} distinct tuples ({@code [word, count, word]},
 * as Storm's {@link Values}), so the fields groupers see varying keys and the JIT cannot fold the answer. The keys are
 * Strings whose hash codes the JVM caches after the first call: the figures are the grouper's own work, not the
 * hashing of fresh strings. {@code fieldsSelectKeyBaseline} is the textbook way to group by fields (copy the selected
 * values into a key list, hash the list) and shows what hashing in place saves.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class RoutingBenchmark {
    static final int POOL = 1024;

    /** Number of consumer tasks of the subscription. */
    @Param({"4", "16"})
    public int targets;

    private List<Object>[] tuples;
    private int cursor;

    private Grouper shuffle;
    private Grouper fields1;
    private Grouper fields2;
    private Grouper all;
    private Grouper global;
    private List<Integer> targetList;
    private final int[] oneField = {0};

    @Setup(Level.Trial)
    @SuppressWarnings("unchecked")
    public void setUp() {
        SplittableRandom random = new SplittableRandom(42);
        tuples = new List[POOL];
        for (int i = 0; i < POOL; i++) {
            tuples[i] = new Values("word-" + random.nextInt(100_000), (long) i, "user-" + random.nextInt(10_000));
        }
        // Task ids as a plan gives them: contiguous, not starting at zero (other components come first).
        targetList = new ArrayList<>();
        for (int t = 0; t < targets; t++) {
            targetList.add(5 + t);
        }
        shuffle = new ShuffleGrouper(targetList);
        fields1 = new FieldsGrouper(targetList, new int[] {0});
        fields2 = new FieldsGrouper(targetList, new int[] {0, 2});
        all = FixedGrouper.all(targetList);
        global = FixedGrouper.global(targetList);
    }

    private List<Object> nextTuple() {
        int i = cursor;
        cursor = (i + 1) & (POOL - 1);
        return tuples[i];
    }

    @Benchmark
    public List<Integer> shuffle() {
        return shuffle.chooseTasks(nextTuple());
    }

    @Benchmark
    public List<Integer> fieldsOneStringKey() {
        return fields1.chooseTasks(nextTuple());
    }

    @Benchmark
    public List<Integer> fieldsTwoStringKeys() {
        return fields2.chooseTasks(nextTuple());
    }

    /** The naive fields grouping: a key list per tuple, hashed as a list (one allocation per emit). */
    @Benchmark
    public Integer fieldsSelectKeyBaseline() {
        List<Object> values = nextTuple();
        List<Object> key = new ArrayList<>(oneField.length);
        for (int index : oneField) {
            key.add(values.get(index));
        }
        return targetList.get(Math.floorMod(key.hashCode(), targetList.size()));
    }

    @Benchmark
    public List<Integer> all() {
        return all.chooseTasks(nextTuple());
    }

    @Benchmark
    public List<Integer> global() {
        return global.chooseTasks(nextTuple());
    }
}
