package io.microburst.serialization;

/**
 * A tuple value that Storm's Kryo setup cannot serialize and read back, found by
 * {@link io.microburst.MicroburstConfig#SERIALIZATION_CHECK}: the message names the component, the stream, the field
 * and the value's class, and says how a Storm cluster would accept it.
 */
public final class NotSerializableValueException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String component;
    private final String stream;
    private final String field;

    NotSerializableValueException(String component, String stream, String field, int index, Object value,
                                  Throwable cause) {
        super(message(component, stream, field, index, value, cause), cause);
        this.component = component;
        this.stream = stream;
        this.field = field;
    }

    /** The emitting component. */
    public String component() {
        return component;
    }

    /** The stream emitted to. */
    public String stream() {
        return stream;
    }

    /** The field whose value failed, or null when no single value could be blamed. */
    public String field() {
        return field;
    }

    private static String message(String component, String stream, String field, int index, Object value,
                                  Throwable cause) {
        StringBuilder s = new StringBuilder("component '").append(component).append("', stream '").append(stream)
            .append('\'');
        if (index >= 0) {
            s.append(", field '").append(field == null ? "#" + index : field).append("' (index ").append(index)
                .append(")");
            s.append(": a ").append(value == null ? "null" : value.getClass().getName());
        }
        s.append(" cannot be serialized by Storm's Kryo setup, so a Storm cluster could not send this tuple to"
            + " another worker (").append(cause).append("). Register the class with topology.kryo.register"
            + " (Config.registerSerialization), or set topology.fall.back.on.java.serialization to true for a"
            + " java.io.Serializable class.");
        return s.toString();
    }
}
