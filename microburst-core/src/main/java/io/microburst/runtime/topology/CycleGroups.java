package io.microburst.runtime.topology;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;

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

    /** For each of {@code n} vertices, the id of its group, given the graph's edges as {from, to} pairs. */
    static int[] of(int n, List<int[]> edges) {
        int[][] out = adjacency(n, edges, 0);
        int[][] in = adjacency(n, edges, 1);
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
                if (next[depth] == out[v].length) {
                    order[done++] = v;
                    depth--;
                } else {
                    int w = out[v][next[depth]++];
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
                for (int w : in[v]) {
                    if (group[w] < 0) {
                        group[w] = root;
                        work.add(w);
                    }
                }
            }
        }
        return group;
    }

    /** Each vertex's neighbours: edge ends {@code 1 - side} by their end {@code side}. */
    private static int[][] adjacency(int n, List<int[]> edges, int side) {
        int[] degree = new int[n];
        for (int[] e : edges) {
            degree[e[side]]++;
        }
        int[][] adj = new int[n][];
        for (int v = 0; v < n; v++) {
            adj[v] = new int[degree[v]];
        }
        int[] filled = new int[n];
        for (int[] e : edges) {
            adj[e[side]][filled[e[side]]++] = e[1 - side];
        }
        return adj;
    }
}
