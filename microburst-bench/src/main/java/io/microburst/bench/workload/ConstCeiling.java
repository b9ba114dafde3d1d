package io.microburst.bench.workload;

/**
 * Hand-written ConstSpout -> (IdBolt ->) NullBolt: the spout's item is a constant and every bolt just passes it on, so the
 * only work left is the hand-off itself. Producer and consumer share only the immutable constant.
 */
final class ConstCeiling implements CeilingWork {
    private static final Object PAYLOAD = "some data";
    @Override
    public Object produce() {
        return PAYLOAD;
    }

    @Override
    public int consume(Object item) {
        return item == PAYLOAD ? 1 : 0;
    }
}
