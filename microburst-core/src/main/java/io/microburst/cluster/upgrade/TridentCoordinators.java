package io.microburst.cluster.upgrade;

/**
 * Trident's coordinators, by the component ids storm-client's {@code TridentTopology} gives them: the master batch
 * coordinator spout ({@code $mastercoord-...}) and each spout's coordinator bolt ({@code $spoutcoord-...}). Each keeps
 * its batch state through Storm's {@code TransactionalState}, whose ZooKeeper clients take about 100 ms to close or
 * to open (ZooKeeper's NIO client sleeps in its socket's cleanup), and holds nothing else an upgrade hands over: their
 * closes may trail the old version's stop.
 *
 * <p>Threading: stateless.
 */
final class TridentCoordinators {
    private TridentCoordinators() {
    }

    static boolean isCoordinator(String componentId) {
        return componentId.startsWith("$mastercoord-") || componentId.startsWith("$spoutcoord-");
    }
}
