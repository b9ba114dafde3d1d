package io.microburst.server.web;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.storm.thrift.TException;

/**
 * Runs a topology jar's main so that its {@code StormSubmitter} submits to this server, as {@code storm jar} does:
 * what the web port's upgrade ({@link UpgradeApi}) needs from the server. The implementation never runs the user's
 * main inside the server's process.
 *
 * <p>Thread-safe.
 */
public interface JarMains {
    /** The largest jar accepted, in bytes (the server's upload limit). */
    long maxJarBytes();

    /** A folder for a request's jar while it is received (multipart parts are spooled there). */
    Path scratchDir();

    /**
     * Receives {@code jar} (at most {@link #maxJarBytes()}, checked as an uploaded jar is) and runs {@code mainClass}
     * from it with {@code args}, {@code conf} added to the main's Storm configuration ({@code storm.options}), and
     * returns once the main has ended.
     *
     * @param what the request, for messages ("upgrade of topology 'counts'")
     * @throws org.apache.storm.generated.InvalidTopologyException when the jar is refused or the main failed or its
     *     submit was refused: one line saying why
     * @throws RequestBody.TooLarge when the jar is larger than allowed
     */
    void run(String what, InputStream jar, String mainClass, List<String> args, Map<String, Object> conf)
        throws TException;
}
