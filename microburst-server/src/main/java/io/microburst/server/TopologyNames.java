package io.microburst.server;

import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.utils.Utils;
import org.apache.storm.utils.WrappedInvalidTopologyException;

/** The names the server accepts for topologies: Storm's rules, and a folder of the store. Any thread. */
final class TopologyNames {
    private static final int MAX_NAME_LENGTH = 200;

    private TopologyNames() {
    }

    /** Refuses, in one line, a name Storm refuses or the store cannot hold. */
    static void validate(String name) throws InvalidTopologyException {
        try {
            Utils.validateTopologyName(name);
        } catch (IllegalArgumentException e) {
            throw new WrappedInvalidTopologyException("submitTopology: " + e.getMessage());
        }
        if (!storable(name)) {
            throw new WrappedInvalidTopologyException("submitTopology: topology name '" + name + "' is not allowed (at most "
                + MAX_NAME_LENGTH + " characters, not . or ..)");
        }
    }

    /** Whether the name can be a folder of the store (Storm's own rules already exclude / \\ and :). */
    static boolean storable(String name) {
        return !name.equals(".") && !name.equals("..") && name.length() <= MAX_NAME_LENGTH;
    }
}
