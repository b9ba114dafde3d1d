package io.microburst.plan;

import static io.microburst.plan.PlanChecks.invalid;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.storm.Constants;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.Grouping;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.StreamInfo;
import org.apache.storm.tuple.Fields;

/**
 * Gives planned components their output streams (schemas from the declarations, sorted by stream id) and their
 * subscriptions (sorted by source component, then stream), refusing reserved stream ids, unknown sources and streams,
 * Storm's system streams other than {@value #SYSTEM_STREAM}, and groupings a stream cannot serve.
 *
 * <p>Threading: stateless; called on the planning thread, which owns the components it wires.
 */
final class StreamWiring {
    /** The stream Storm adds to every component and never sends on (storm-client's StormCommon.SYSTEM_STREAM_ID). */
    static final String SYSTEM_STREAM = "__system";
    private static final Fields SYSTEM_STREAM_FIELDS = new Fields("event");
    /** The other streams Storm's system topology gives user components (acking, metrics, event logging). */
    private static final Set<String> STORM_SYSTEM_STREAMS = Set.of(Constants.METRICS_STREAM_ID, "__eventlog",
        "__ack_init", "__ack_ack", "__ack_fail", "__ack_reset_timeout");

    private StreamWiring() {
    }

    /**
     * Adds every component's streams, then every subscription, to {@code components} (sorted by id).
     *
     * @return each component's stream schemas by stream id, plus those of Storm's system component (ticks)
     */
    static Map<String, Map<String, Fields>> wire(Map<String, ComponentPlan> components)
        throws InvalidTopologyException {
        Map<String, Map<String, Fields>> streamFields = declareStreams(components);
        for (ComponentPlan consumer : components.values()) {
            subscribe(consumer, components, streamFields);
        }
        return streamFields;
    }

    private static Map<String, Map<String, Fields>> declareStreams(Map<String, ComponentPlan> components)
        throws InvalidTopologyException {
        Map<String, Map<String, Fields>> streamFields = new HashMap<>();
        for (ComponentPlan c : components.values()) {
            Map<String, Fields> byStream = new HashMap<>();
            Map<String, StreamInfo> declared = c.common().get_streams() == null ? Map.of() : c.common().get_streams();
            int index = 0;
            for (Map.Entry<String, StreamInfo> s : new TreeMap<>(declared).entrySet()) {
                if (s.getKey().startsWith("__")) {
                    throw invalid("Component '" + c.id() + "' declares stream '" + s.getKey()
                        + "': stream ids starting with '__' belong to the system");
                }
                Fields fields = new Fields(s.getValue().get_output_fields());
                byStream.put(s.getKey(), fields);
                c.addStream(new StreamPlan(c.id(), s.getKey(), fields, s.getValue().is_direct(), index++));
            }
            streamFields.put(c.id(), Collections.unmodifiableMap(byStream));
        }
        streamFields.put(Constants.SYSTEM_COMPONENT_ID, Map.of(
            Constants.SYSTEM_TICK_STREAM_ID, new Fields("rate_secs"),
            Constants.METRICS_TICK_STREAM_ID, new Fields("interval")));
        return streamFields;
    }

    private static void subscribe(ComponentPlan consumer, Map<String, ComponentPlan> components,
                                  Map<String, Map<String, Fields>> streamFields) throws InvalidTopologyException {
        Map<GlobalStreamId, Grouping> inputs = consumer.common().get_inputs() == null
            ? Map.of() : consumer.common().get_inputs();
        if (consumer.isSpout() && !inputs.isEmpty()) {
            throw invalid("Spout '" + consumer.id() + "' subscribes to streams; only bolts can have inputs");
        }
        List<Map.Entry<GlobalStreamId, Grouping>> sorted = new ArrayList<>(inputs.entrySet());
        sorted.sort((a, b) -> {
            int c = a.getKey().get_componentId().compareTo(b.getKey().get_componentId());
            return c != 0 ? c : a.getKey().get_streamId().compareTo(b.getKey().get_streamId());
        });
        int inputIndex = 0;
        for (Map.Entry<GlobalStreamId, Grouping> in : sorted) {
            StreamPlan stream = source(consumer, in.getKey(), components, streamFields);
            PlanChecks.checkGrouping(consumer, stream, in.getValue());
            Subscription subscription = new Subscription(stream, consumer, in.getValue(), inputIndex++);
            stream.addSubscription(subscription);
            consumer.addInput(subscription);
        }
    }

    /** The stream {@code consumer} subscribes to as {@code source}; the system stream is added on first use. */
    private static StreamPlan source(ComponentPlan consumer, GlobalStreamId source, Map<String, ComponentPlan> components,
                                     Map<String, Map<String, Fields>> streamFields) throws InvalidTopologyException {
        ComponentPlan producer = components.get(source.get_componentId());
        if (producer == null) {
            throw invalid("Component '" + consumer.id() + "' subscribes to unknown component '"
                + source.get_componentId() + "' (stream '" + source.get_streamId() + "')");
        }
        StreamPlan stream = producer.streams().get(source.get_streamId());
        if (stream == null && SYSTEM_STREAM.equals(source.get_streamId())) {
            // Storm gives every component this stream and sends nothing on it: subscribing is allowed
            stream = new StreamPlan(producer.id(), SYSTEM_STREAM, SYSTEM_STREAM_FIELDS, false,
                producer.streams().size());
            producer.addStream(stream);
            Map<String, Fields> byStream = new HashMap<>(streamFields.get(producer.id()));
            byStream.put(SYSTEM_STREAM, SYSTEM_STREAM_FIELDS);
            streamFields.put(producer.id(), Collections.unmodifiableMap(byStream));
        } else if (stream == null && STORM_SYSTEM_STREAMS.contains(source.get_streamId())) {
            throw invalid("Component '" + consumer.id() + "' subscribes to system stream '"
                + source.get_streamId() + "' of component '" + producer.id() + "': Microburst runs no acker, "
                + "metrics or event logger tasks and sends nothing on Storm's system streams; only '"
                + SYSTEM_STREAM + "' (on which Storm sends nothing either) can be subscribed to");
        }
        if (stream == null) {
            throw invalid("Component '" + consumer.id() + "' subscribes to stream '" + source.get_streamId()
                + "' of component '" + producer.id() + "', which declares no such stream (declared: "
                + producer.streams().keySet() + ")");
        }
        return stream;
    }
}
