package io.microburst.cluster;

import io.microburst.plan.Submission;
import io.microburst.plan.TopologyPlan;
import java.util.List;
import org.apache.storm.generated.InvalidTopologyException;

/**
 * Which class loader user classes are loaded with: a topology's components, deserialized once each at submit
 * ({@link #forComponents}), and the classes a configuration names ({@link #context()}).
 *
 * <p>Threading: stateless; called on the submitting thread, whose stack and context class loader it reads.
 */
public final class ComponentLoaders {
    private ComponentLoaders() {
    }

    /**
     * The class loader the topology's components are deserialized with, each once here: the context class loader, or,
     * when a class of theirs is not found there, the first loader of the calling code that finds them all (the loader
     * Java serialization itself picks, and so Storm's local mode): a Clojure test's {@code reify}, for one, lives only
     * in the loader of the code that made it.
     *
     * @throws InvalidTopologyException as {@link Submission#checkComponentsDeserialize} with the context class loader,
     *     when no loader of the calling code deserializes them all either
     */
    public static ClassLoader forComponents(String topologyName, TopologyPlan plan) throws InvalidTopologyException {
        ClassLoader context = context();
        try {
            Submission.checkComponentsDeserialize(topologyName, plan, context);
            return context;
        } catch (InvalidTopologyException refused) {
            if (!classNotFound(refused)) {
                throw refused;
            }
            for (ClassLoader caller : callerLoaders(context)) {
                try {
                    Submission.checkComponentsDeserialize(topologyName, plan, caller);
                    return caller;
                } catch (InvalidTopologyException e) {
                    // its classes are not all there either
                }
            }
            throw refused;
        }
    }

    /** The calling thread's context class loader, else the one that loaded Microburst. */
    public static ClassLoader context() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return loader != null ? loader : ComponentLoaders.class.getClassLoader();
    }

    /** The loaders of the code on the calling thread's stack, innermost first, other than {@code context}'s. */
    private static List<ClassLoader> callerLoaders(ClassLoader context) {
        return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
            .walk(frames -> frames.map(f -> f.getDeclaringClass().getClassLoader())
                .filter(l -> l != null && l != context && l != ClassLoader.getPlatformClassLoader())
                .distinct().toList());
    }

    private static boolean classNotFound(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ClassNotFoundException || t instanceof NoClassDefFoundError) {
                return true;
            }
        }
        return false;
    }
}
