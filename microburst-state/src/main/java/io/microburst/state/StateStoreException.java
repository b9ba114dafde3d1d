package io.microburst.state;

/** A state store could not be opened, read or written; the message names the directory and what was being done. */
public final class StateStoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StateStoreException(String message) {
        super(message);
    }

    public StateStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
