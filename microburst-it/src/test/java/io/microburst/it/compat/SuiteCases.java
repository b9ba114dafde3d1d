package io.microburst.it.compat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs the cases of a JUnit 5 test class compiled from Storm's sources, one fresh instance per case as JUnit makes
 * them: {@code @Test} methods, and {@code @ParameterizedTest} methods once per {@code @ValueSource} string (converted
 * to the parameter's type). Enough for Storm's own suites, which use nothing else; a case whose method has other
 * sources is reported as not run.
 *
 * <p>Threading: the calling test's thread, which is the case's thread (its context class loader is the suite's while
 * a case runs, as Storm's worker threads inherit it, and so is the loader of Storm's Java deserialization).
 */
final class SuiteCases {
    static final String PASSED = "passed";

    private SuiteCases() {
    }

    /**
     * Each selected case's verdict, in method-name order: {@link #PASSED}, or the failure's first line.
     *
     * @param selected takes a case's method name (a parameterized case is selected by its method's name)
     */
    static Map<String, String> run(Path classes, List<Path> libraries, String className, Predicate<String> selected)
        throws Exception {
        List<URL> urls = new ArrayList<>();
        urls.add(classes.toUri().toURL());
        for (Path library : libraries) {
            urls.add(library.toUri().toURL());
        }
        Map<String, String> verdicts = new LinkedHashMap<>();
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), SuiteCases.class.getClassLoader())) {
            Class<?> suite = loader.loadClass(className);
            List<Method> methods = new ArrayList<>(List.of(suite.getMethods()));
            methods.sort(Comparator.comparing(Method::getName));
            thread.setContextClassLoader(loader);
            // Storm's own hook for test code outside the class path: its Java deserialization (TrackedTopology's
            // copies of the components, on both runtimes) resolves the suite's classes with this loader
            Utils.setClassLoaderForJavaDeSerialize(loader);
            for (Method method : methods) {
                if (!selected.test(method.getName())) {
                    continue;
                }
                if (method.isAnnotationPresent(Test.class)) {
                    verdicts.put(method.getName(), runCase(suite, method));
                } else if (method.isAnnotationPresent(ParameterizedTest.class)) {
                    ValueSource values = method.getAnnotation(ValueSource.class);
                    if (values == null || method.getParameterCount() != 1) {
                        verdicts.put(method.getName(), "not run: only @ValueSource strings are supported");
                        continue;
                    }
                    for (String value : values.strings()) {
                        verdicts.put(method.getName() + "[" + value + "]",
                            runCase(suite, method, argument(value, method.getParameterTypes()[0])));
                    }
                }
            }
        } finally {
            Utils.resetClassLoaderForJavaDeSerialize();
            thread.setContextClassLoader(previous);
        }
        return verdicts;
    }

    /** Runs one case; its verdict and time go to standard output too (the test's report file). */
    private static String runCase(Class<?> suite, Method method, Object... arguments) throws ReflectiveOperationException {
        long start = System.nanoTime();
        String verdict;
        try {
            method.invoke(suite.getConstructor().newInstance(), arguments);
            verdict = PASSED;
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            verdict = cause.toString().lines().findFirst().orElse(cause.getClass().getName());
        }
        System.out.printf("%s.%s%s: %s (%d ms)%n", suite.getSimpleName(), method.getName(),
            arguments.length == 0 ? "" : java.util.Arrays.toString(arguments), verdict,
            (System.nanoTime() - start) / 1_000_000);
        return verdict;
    }

    /** A {@code @ValueSource} string as JUnit's implicit conversion gives it to a parameter of {@code type}. */
    private static Object argument(String value, Class<?> type) {
        if (type == boolean.class || type == Boolean.class) {
            return Boolean.parseBoolean(value);
        }
        if (type == int.class || type == Integer.class) {
            return Integer.parseInt(value);
        }
        if (type == long.class || type == Long.class) {
            return Long.parseLong(value);
        }
        return value;
    }
}
