package io.microburst.cli;

import java.util.List;

/**
 * The command line cannot be understood; {@link Main} prints the message, any suggestions and the usage line of the
 * verb concerned, and exits with status 2.
 */
public final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String usage;
    private final List<String> suggestions;

    public UsageException(String message) {
        this(message, null, List.of());
    }

    /**
     * @param usage the usage text to print after the message (the verb's usage line and where to read more), or null
     *     for only where to read more
     * @param suggestions what the user may have meant (a mistyped option or subcommand), possibly empty
     */
    public UsageException(String message, String usage, List<String> suggestions) {
        super(message);
        this.usage = usage;
        this.suggestions = List.copyOf(suggestions);
    }

    /** The usage text to print after the message, or null for only where to read more. */
    public String usage() {
        return usage;
    }

    public List<String> suggestions() {
        return suggestions;
    }
}
