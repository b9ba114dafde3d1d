package io.microburst.localcluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.testing.MkTupleParam;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;
import org.apache.storm.utils.Utils;

/**
 * {@code Testing.testTuple}: a tuple for a bolt's unit test, from task 1 of a component ("component" unless the
 * parameter names one) on a stream (the default stream unless named), with the given field names or field1, field2...
 *
 * <p>Stateless; any thread.
 */
public final class TestTuples {
    private static final int TASK = 1;

    private TestTuples() {
    }

    public static Tuple make(List<Object> values, MkTupleParam param) {
        String stream = param.getStream() == null ? Utils.DEFAULT_STREAM_ID : param.getStream();
        String component = param.getComponent() == null ? "component" : param.getComponent();
        List<String> fields = param.getFields();
        if (fields == null) {
            fields = new ArrayList<>(values.size());
            for (int i = 1; i <= values.size(); i++) {
                fields.add("field" + i);
            }
        }
        Map<Integer, String> taskToComponent = new HashMap<>();
        taskToComponent.put(TASK, component);
        Map<String, Fields> streams = new HashMap<>();
        streams.put(stream, new Fields(fields));
        Map<String, Map<String, Fields>> componentStreams = new HashMap<>();
        componentStreams.put(component, streams);
        TopologyContext context = new TopologyContext(null, Utils.readStormConfig(), taskToComponent, null,
            componentStreams, null, "test-storm-id", null, null, TASK, null, null, new HashMap<>(), new HashMap<>(),
            new HashMap<>(), new HashMap<>(), new AtomicBoolean(false), null);
        return new TupleImpl(context, values, component, TASK, stream);
    }
}
