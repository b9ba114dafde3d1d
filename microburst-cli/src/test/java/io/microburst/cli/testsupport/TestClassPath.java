package io.microburst.cli.testsupport;

/** The class path of the running tests, for compilers and subprocesses. */
public final class TestClassPath {
    private TestClassPath() {
    }

    public static String get() {
        // The test runner may start the JVM through a manifest-only jar; it then publishes the real path here.
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }
}
