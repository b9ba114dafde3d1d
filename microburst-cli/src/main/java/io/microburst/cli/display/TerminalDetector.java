package io.microburst.cli.display;

/** Decides whether live output may redraw in place with ANSI escapes. */
public final class TerminalDetector {
    private TerminalDetector() {
    }

    /** For this process: stdout is a console and {@code TERM} is not {@code dumb}. */
    public static boolean isInteractive() {
        return isInteractive(System.console() != null, System.getenv("TERM"));
    }

    /** The rule itself, for tests. */
    static boolean isInteractive(boolean hasConsole, String term) {
        return hasConsole && !"dumb".equals(term);
    }
}
