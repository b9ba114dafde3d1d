package io.microburst.cli;

import java.util.List;

/**
 * The command line cannot be understood; {@link Main} prints the message, any suggestions and the usage of the
 * subcommand concerned, and exits with status 2.
 */
public final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String usage;
    private final List<String> suggestions;

    public UsageException(String message) {
        this(message, null, List.of());
    }

    /**
     * @param usage the usage text to print after the message, or null for the whole command's
     * @param suggestions what the user may have meant (a mistyped option or subcommand), possibly empty
     */
    public UsageException(String message, String usage, List<String> suggestions) {
        super(message);
        this.usage = usage;
        this.suggestions = List.copyOf(suggestions);
    }

    /** The usage text to print after the message, or null for the whole command's. */
    public String usage() {
        return usage;
    }

    public List<String> suggestions() {
        return suggestions;
    }
}
