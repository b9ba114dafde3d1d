package io.microburst.server.web;

import org.eclipse.jetty.server.Handler;

/**
 * The server's token and who must present it, shared by its HTTP ports: state changes always need it; reads too when
 * {@code required} ({@link ReadAuth}). Immutable.
 *
 * @param token the secret, new at every start
 * @param tokenFile where scripts of the server's user read it, for the advice in a refusal
 * @param required whether reads need it too (a port beyond loopback, or {@code microburst.server.http.read.auth})
 */
public record ReadAccess(String token, String tokenFile, boolean required) {
    /** {@code handler} behind the read check, refusing in Storm's JSON error shape or in a line of text. */
    public Handler guard(Handler handler, boolean jsonErrors) {
        return new ReadAuth(token, tokenFile, required, jsonErrors, handler);
    }
}
