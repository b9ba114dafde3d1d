package io.microburst.bench.topology.email;

import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/** How an {@link Email} travels in a tuple: one field per record component, all Storm-serializable types. Stateless. */
public final class EmailFields {
    /** The declared output fields of every bolt that emits emails. */
    public static final Fields FIELDS = new Fields("id", "sent", "from", "to", "subject", "body");

    private EmailFields() {
    }

    public static Values toValues(Email email) {
        return new Values(email.id(), email.sentMillis(), email.from(), email.to(), email.subject(), email.body());
    }

    public static Email fromTuple(Tuple tuple) {
        return new Email(tuple.getLong(0), tuple.getLong(1), tuple.getString(2), tuple.getString(3), tuple.getString(4),
            tuple.getString(5));
    }
}
