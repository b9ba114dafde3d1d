package io.microburst.cli;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * What the user may have meant by a mistyped option or verb, as git's "did you mean": the names of the command
 * concerned within two edits of what was typed (a swap of neighbours counts as one: {@code --wiat} is {@code --wait},
 * {@code lsit} is {@code list}), closest first; picocli's own guesses (same first letters, shared letter pairs) when
 * none is that close.
 *
 * <p>Threading: stateless; any thread.
 */
final class Suggestions {
    private static final int MAX_EDITS = 2;

    private Suggestions() {
    }

    static List<String> of(UnmatchedArgumentException e) {
        List<String> unmatched = e.getUnmatched();
        CommandLine line = e.getCommandLine();
        for (String typed : unmatched) {
            Set<String> names = new LinkedHashSet<>();
            if (typed.startsWith("-")) {
                for (OptionSpec option : line.getCommandSpec().options()) {
                    if (!option.hidden()) {
                        names.addAll(List.of(option.names()));
                    }
                }
            } else {
                names.addAll(line.getSubcommands().keySet());
            }
            List<String> close = closest(typed.contains("=") ? typed.substring(0, typed.indexOf('=')) : typed, names);
            if (!close.isEmpty()) {
                return close;
            }
        }
        return new ArrayList<>(e.getSuggestions());
    }

    /** The names within {@value #MAX_EDITS} edits of {@code typed}, the closest ones only. */
    static List<String> closest(String typed, Iterable<String> names) {
        List<String> best = new ArrayList<>();
        int bestDistance = MAX_EDITS + 1;
        for (String name : names) {
            int d = distance(typed, name);
            if (d < bestDistance) {
                best.clear();
                bestDistance = d;
            }
            if (d == bestDistance && d > 0) {
                best.add(name);
            }
        }
        return best;
    }

    /** Edits (insert, delete, replace, swap of neighbours) from a to b: the optimal string alignment distance. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
