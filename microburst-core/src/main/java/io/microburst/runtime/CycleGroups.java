package io.microburst.runtime;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.BitSet;

/**
 * The strongly connected groups of a directed graph of executors (an edge wherever a task of one executor feeds a
 * task of another): two executors in one group can each reach the other, so a full queue between them must never
 * block, or each could wait for the other (STORM-3637). Kosaraju's two passes, iteratively.
 *
 * <p>Threading: stateless; any thread.
 */
final class CycleGroups {
    private CycleGroups() {
    }

    /** For each of {@code n} vertices, the id of its group, given each vertex's outgoing and incoming edges. */
    static int[] of(BitSet[] out, BitSet[] in) {
        int n = out.length;
        int[] order = new int[n];
        int done = 0;
        boolean[] visited = new boolean[n];
        int[] stack = new int[n];
        int[] next = new int[n];
        for (int root = 0; root < n; root++) {
            if (visited[root]) {
                continue;
            }
            int depth = 0;
            stack[0] = root;
            next[0] = 0;
            visited[root] = true;
            while (depth >= 0) {
                int v = stack[depth];
                int w = out[v].nextSetBit(next[depth]);
                if (w < 0) {
                    order[done++] = v;
                    depth--;
                } else {
                    next[depth] = w + 1;
                    if (!visited[w]) {
                        visited[w] = true;
                        depth++;
                        stack[depth] = w;
                        next[depth] = 0;
                    }
                }
            }
        }
        int[] group = new int[n];
        Arrays.fill(group, -1);
        ArrayDeque<Integer> work = new ArrayDeque<>();
        for (int k = n - 1; k >= 0; k--) {
            int root = order[k];
            if (group[root] >= 0) {
                continue;
            }
            group[root] = root;
            work.add(root);
            while (!work.isEmpty()) {
                int v = work.poll();
                for (int w = in[v].nextSetBit(0); w >= 0; w = in[v].nextSetBit(w + 1)) {
                    if (group[w] < 0) {
                        group[w] = root;
                        work.add(w);
                    }
                }
            }
        }
        return group;
    }

    /** For each vertex, whether it is in {@code from}'s group (and is not {@code from}). */
    static boolean[] flags(int from, int[] groups) {
        boolean[] flags = new boolean[groups.length];
        for (int j = 0; j < groups.length; j++) {
            flags[j] = j != from && groups[j] == groups[from];
        }
        return flags;
    }
}
