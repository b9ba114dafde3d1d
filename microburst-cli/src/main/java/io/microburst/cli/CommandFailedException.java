package io.microburst.cli;

/**
 * A command ran but could not do what was asked (a missing blob, a topology not running, a server that refused); the
 * message says which, naming the key, topology or server. {@link Main} prints it and exits with status 1.
 */
public final class CommandFailedException extends Exception {
    private static final long serialVersionUID = 1L;

    public CommandFailedException(String message) {
        super(message);
    }

    public CommandFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
