package io.microburst.cli;

/** The command line cannot be understood; {@link Main} prints the message with the usage and exits with status 2. */
public final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
