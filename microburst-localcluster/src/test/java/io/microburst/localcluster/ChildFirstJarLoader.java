package io.microburst.localcluster;

import java.net.URL;
import java.net.URLClassLoader;

/**
 * Loads the classes of one jar from that jar even when its parent has classes of the same names (ours, which carry
 * storm-server's names); everything else from the parent. Used by one test thread.
 */
final class ChildFirstJarLoader extends URLClassLoader {
    ChildFirstJarLoader(URL jar, ClassLoader parent) {
        super(new URL[] {jar}, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                try {
                    loaded = findClass(name);
                } catch (ClassNotFoundException notInJar) {
                    loaded = getParent().loadClass(name);
                }
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }
}
