package io.microburst.plan;

import java.util.List;
import java.util.Map;
import io.microburst.config.ConfigKeys;
import org.apache.storm.generated.Grouping;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.utils.WrappedInvalidTopologyException;

/**
 * The plan's one-line refusals that need no planning state: Microburst's own topology settings, and each subscription's
 * grouping against the stream it reads. Every message names the topology, component, stream or field at fault.
 *
 * <p>Threading: stateless; any thread.
 */
final class PlanChecks {
    /** Microburst's settings that count something and must be at least 1. */
    private static final List<String> AT_LEAST_ONE = List.of(ConfigKeys.EXECUTOR_QUEUE_SIZE,
        ConfigKeys.PRODUCER_BATCH_SIZE, ConfigKeys.PARALLELISM_INTERVAL_SECS, ConfigKeys.EXECUTOR_THREADS_MAX);

    private PlanChecks() {
    }

    /** The refusal a plan throws: Storm's own exception type, carrying {@code message}. */
    static InvalidTopologyException invalid(String message) {
        return new WrappedInvalidTopologyException(message);
    }

    /** Refuses Microburst settings of topology {@code name} that the runtime cannot use. */
    static void checkMicroburstConf(Map<String, Object> conf, String name) throws InvalidTopologyException {
        for (String key : AT_LEAST_ONE) {
            Integer value = PlanConf.intConf(conf, key, name);
            if (value != null && value < 1) {
                throw invalid("'" + name + "': configuration " + key + " must be at least 1, got " + value);
            }
        }
        Object max = conf.get(ConfigKeys.TUPLE_MAX_BYTES);
        if (max != null && !(max instanceof Number)) {
            throw invalid("'" + name + "': configuration " + ConfigKeys.TUPLE_MAX_BYTES + " must be a number of bytes, got '"
                + max + "'");
        }
        try {
            PlacementPolicy.Mode.of(conf);
            ParallelismPolicy.enabled(conf);
        } catch (IllegalArgumentException e) {
            throw invalid("'" + name + "': " + e.getMessage());
        }
    }

    /** Refuses a subscription of {@code consumer} to {@code stream} whose grouping the stream cannot serve. */
    static void checkGrouping(ComponentPlan consumer, StreamPlan stream, Grouping grouping)
        throws InvalidTopologyException {
        if (grouping == null || grouping.getSetField() == null) {
            throw invalid("Component '" + consumer.id() + "' subscribes to " + stream + " without a grouping");
        }
        if (grouping.is_set_fields()) {
            for (String field : grouping.get_fields()) {
                if (!stream.fields().contains(field)) {
                    throw invalid("Component '" + consumer.id() + "' groups stream " + stream + " by field '" + field
                        + "', which the stream does not declare (fields: " + stream.fields().toList() + ")");
                }
            }
        }
        if (grouping.is_set_direct() && !stream.isDirect()) {
            throw invalid("Component '" + consumer.id() + "' subscribes to " + stream
                + " with a direct grouping, but the stream is not declared direct");
        }
        if (!grouping.is_set_direct() && stream.isDirect()) {
            throw invalid("Component '" + consumer.id() + "' subscribes to direct stream " + stream
                + " with a non-direct grouping; use directGrouping");
        }
    }
}
