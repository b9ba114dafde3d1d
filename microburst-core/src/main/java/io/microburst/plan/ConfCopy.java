package io.microburst.plan;

import java.util.AbstractMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A configuration map as Storm hands one to user code: writable. Reads go to the plan's shared, unmodifiable
 * configuration until the first write, which makes a private shallow copy (as Storm gives each executor a fresh map:
 * storm-client's own {@code PersistentWindowedBoltExecutor.prepare} writes into the map it gets). A write never
 * reaches the plan or another holder. Not thread-safe, as Storm's maps are not: one per callee.
 */
final class ConfCopy extends AbstractMap<String, Object> {
    private final Map<String, Object> shared;
    private Map<String, Object> own;

    ConfCopy(Map<String, Object> shared) {
        this.shared = shared;
    }

    private Map<String, Object> reading() {
        return own != null ? own : shared;
    }

    private Map<String, Object> writing() {
        if (own == null) {
            own = new HashMap<>(shared);
        }
        return own;
    }

    @Override
    public Object get(Object key) {
        return reading().get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return reading().containsKey(key);
    }

    @Override
    public int size() {
        return reading().size();
    }

    /** Before the first write, the shared entries (read-only); after it, the private copy's. */
    @Override
    public Set<Entry<String, Object>> entrySet() {
        return reading().entrySet();
    }

    @Override
    public Object put(String key, Object value) {
        return writing().put(key, value);
    }

    @Override
    public Object remove(Object key) {
        return writing().remove(key);
    }

    @Override
    public void putAll(Map<? extends String, ?> m) {
        writing().putAll(m);
    }

    @Override
    public void clear() {
        writing().clear();
    }
}
