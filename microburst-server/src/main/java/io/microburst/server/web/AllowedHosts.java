package io.microburst.server.web;

import java.util.List;
import java.util.Locale;

/**
 * Host names an HTTP port accepts besides the address it serves (see {@link OriginGuard}), and the configuration key
 * that sets them, for the advice in a refusal. Immutable.
 *
 * @param setting the configuration key
 * @param names lower case, each {@code name} (any port) or {@code name:port}
 */
public record AllowedHosts(String setting, List<String> names) {
    public AllowedHosts {
        names = names.stream().map(n -> n.trim().toLowerCase(Locale.ROOT)).filter(n -> !n.isEmpty()).toList();
    }
}
