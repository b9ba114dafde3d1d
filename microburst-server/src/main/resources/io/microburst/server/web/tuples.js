// Where are my tuples (the topology page's panel): an acked topology's pending tuple trees by the task that holds
// them, and its last failed or timed-out trees with why, from /api/v1/topology/ID/tuples.
const MicroburstTuples = (() => {
  const age = ms => ms < 0 ? '?' : ms >= 10000 ? (ms / 1000).toFixed(1) + ' s' : ms + ' ms';

  /** Reads the view and fills the panel's tables; resolves with the answer. */
  async function refresh(base) {
    const {cell, fill} = Microburst;
    const t = await Microburst.get(base + '/tuples');
    const busy = t.busyThreads.length ? '; busy in a user call: ' + t.busyThreads.join(', ') : '';
    document.getElementById('tuples-note').textContent = t.pendingTrees + ' pending trees' + busy
      + ' (found in ' + t.tookMs.toFixed(1) + ' ms)';
    fill('tuples-pending', t.pending, g => {
      const sample = cell(g.sample.map(s => s.messageId + ' (' + (s.ageExact ? '' : '~') + age(s.ageMs) + ')')
        .join(', '), 'message id (age), oldest first; ~ an estimate from the nearest sampled tree');
      sample.className = 'tasks';
      return [cell(g.task === null ? '(found in no queue)' : g.task), cell(g.count),
        cell(Object.entries(g.states).map(([s, n]) => s + ' ' + n).join(', ')), cell(age(g.oldestAgeMs)), sample];
    });
    fill('tuples-recent', t.recent, e => {
      const reason = cell(e.reason);
      reason.className = 'tasks';
      return [cell(new Date(e.timeMs).toISOString().substring(11, 23)), cell(e.messageId, 'root id ' + e.rootId),
        cell(e.spout + ':' + e.spoutTask), reason, cell(e.lastHolder)];
    });
    return t;
  }

  return {refresh};
})();
