// The topology page (Storm's topology.html?id=ID): summary, actions, stats by window, spouts and bolts, workers,
// configuration, and what Storm's UI cannot show: the upgrades, the live graph, the threads with their fused tasks and
// queues, and latency histograms, and where the tuples of an acked topology are.
(() => {
  const M = Microburst;
  const {cell, linkCell, fill, rate, post, say} = M;
  const id = M.params.get('id');
  const selected = M.params.get('window') || ':all-time';
  const base = '/api/v1/topology/' + encodeURIComponent(id);
  const graph = MicroburstGraph.create(document.getElementById('graph'), id);
  let topology = null;
  let conf = {};
  window.microburstGraph = graph;

  const componentLink = c => '/component.html?id=' + encodeURIComponent(c) + '&topology_id=' + encodeURIComponent(id);
  const liveCapacity = c => {
    const node = graph.read().nodes.find(n => n.component === c);
    return node && node.capacityValue !== undefined ? node.capacityValue.toFixed(3) : '';
  };

  function enableActions(t) {
    const busy = !['ACTIVE', 'INACTIVE'].includes(t.status);
    document.getElementById('activate').disabled = busy || t.status === 'ACTIVE';
    document.getElementById('deactivate').disabled = busy || t.status === 'INACTIVE';
    document.getElementById('rebalance').disabled = busy;
    document.getElementById('kill').disabled = t.status === 'KILLED';
    document.getElementById('debug').disabled = busy || t.debug === true;
    document.getElementById('stop-debug').disabled = busy || t.debug === false;
  }

  async function refresh() {
    const t = await M.get(base + '?window=' + encodeURIComponent(selected));
    graph.update(await M.get(base + '/graph'));
    topology = t;
    document.title = 'Microburst: ' + t.name;
    document.getElementById('crumb').textContent = '/ ' + t.name;
    document.querySelectorAll('.topology-name').forEach(e => { e.textContent = '"' + t.name + '"'; });
    document.querySelectorAll('.window-name').forEach(e => { e.textContent = t.windowHint || selected; });
    fill('summary', [t], s => [cell(s.name), cell(s.id), cell(s.owner), cell(s.status), cell(s.uptime),
      cell(s.workersTotal), cell(s.executorsTotal), cell(s.tasksTotal), cell(s.replicationCount),
      cell(s.debug === undefined ? '' : s.debug ? 'on, ' + s.samplingPct + '%' : 'off')]);
    enableActions(t);
    M.windowSelector('windows', t.topologyStats, selected);
    fill('stats', t.topologyStats, s => [linkCell(s.windowPretty, '?id=' + encodeURIComponent(id) + '&window=' +
      encodeURIComponent(s.window)), cell(s.emitted), cell(s.transferred), cell(s.completeLatency), cell(s.acked),
      cell(s.failed)]);
    const upgrades = Array.isArray(t.upgrades) ? [...t.upgrades].reverse() : [];
    M.show('upgrades-section', upgrades.length > 0);
    fill('upgrades', upgrades, u => [cell(u.version), cell(String(u.time).replace('T', ' ').replace('Z', '')),
      cell(u.fromId), cell(u.toId), cell(u.gapMs), cell(u.failedBack)]);
    fill('spouts', t.spouts, s => [linkCell(s.spoutId, componentLink(s.spoutId)), cell(s.executors), cell(s.tasks),
      cell(s.emitted), cell(s.transferred), cell(s.completeLatency), cell(s.acked), cell(s.failed),
      ...MicroburstCells.errorCells(s)]);
    fill('bolts', t.bolts, b => [linkCell(b.boltId, componentLink(b.boltId)), cell(b.executors), cell(b.tasks),
      cell(b.emitted), cell(b.transferred), cell(b.capacity !== undefined ? b.capacity : liveCapacity(b.boltId)),
      cell(b.executeLatency), cell(b.executed), cell(b.processLatency), cell(b.acked), cell(b.failed),
      ...MicroburstCells.errorCells(b)]);
    M.show('workers-section', Array.isArray(t.workers));
    fill('workers', t.workers, w => [linkCell(w.host, w.workerLogLink), cell(w.port), cell(w.uptime),
      cell(w.executorsTotal), cell(Object.keys(w.componentNumTasks || {}).join(', '))]);
    conf = t.configuration || {};
    M.configTable('config', 'config-filter', conf);
    await refreshRuntime();
    // not awaited: the view may wait up to 200 ms for a thread inside a user call
    MicroburstTuples.refresh(base).catch(e => M.showError(e));
  }

  async function refreshRuntime() {
    const r = await M.get(base + '/runtime');
    fill('threads', r.threads, t => {
      const tasks = cell(t.tasks.map(k => k.component + ':' + k.task).join(' + '));
      tasks.className = 'tasks';
      return [cell(t.name), tasks, MicroburstCells.fillBar(t.queued, t.queueCapacity), cell(t.queued + ' / ' + t.queueCapacity),
        cell(rate('bp:' + t.name, t.backpressureMs)), cell(t.backpressureMs.toFixed(1))];
    });
    fill('latencies', r.latencies, l => [cell(l.component), cell(l.kind), cell(l.samples), cell(l.p50Ms.toFixed(3)),
      cell(l.p90Ms.toFixed(3)), cell(l.p99Ms.toFixed(3)), cell(l.p999Ms.toFixed(3)), cell(l.maxMs.toFixed(3)),
      MicroburstCells.histogram(l.buckets, r.bucketBoundsSeconds)]);
  }

  /** Runs an action and says what came of it; the page's next refresh shows the new state. */
  function act(what, action) {
    say(what + '...');
    action().then(() => { say(what + ': done'); M.showError(null); return refresh(); })
      .catch(e => { say(''); M.showError(e); });
  }

  function on(id, listener) {
    document.getElementById(id).addEventListener('click', listener);
  }

  on('activate', () => act('Activate', () => post(base + '/activate')));
  on('deactivate', () => act('Deactivate', () => post(base + '/deactivate')));
  on('rebalance', async () => {
    const components = topology.spouts.map(s => [s.spoutId, s.executors]).concat(topology.bolts.map(b => [b.boltId, b.executors]));
    document.querySelector('#rebalance-executors tbody').replaceChildren();
    fill('rebalance-executors', components, ([c, n]) => {
      const input = document.createElement('input');
      input.size = 4;
      input.value = n;
      input.dataset.component = c;
      const td = document.createElement('td');
      td.appendChild(input);
      return [cell(c), td];
    });
    document.getElementById('rebalance-workers').value = topology.workersTotal || 1;
    if (!await M.ask('rebalance-dialog')) return;
    act('Rebalance', () => {
      const executors = {};
      document.querySelectorAll('#rebalance-executors input').forEach(input => {
        executors[input.dataset.component] = M.wholeNumber('The executors of ' + input.dataset.component, input.value);
      });
      const wait = M.wholeNumber('The wait', 'rebalance-wait');
      const body = {rebalanceOptions: {numWorkers: M.wholeNumber('The number of workers', 'rebalance-workers'), executors}};
      return post(base + '/rebalance/' + wait, body);
    });
  });
  on('kill', async () => {
    document.getElementById('kill-wait').value = topology.msgTimeout || 30;
    if (!await M.ask('kill-dialog')) return;
    act('Kill', async () => {
      await post(base + '/kill/' + M.wholeNumber('The wait', 'kill-wait'));
      location.href = '/index.html';
    });
  });
  on('debug', async () => {
    if (!await M.ask('debug-dialog')) return;
    act('Debug', () => post(base + '/debug/enable/' + M.wholeNumber('The sampling percentage', 'debug-pct')));
  });
  on('stop-debug', () => act('Stop debug', () => post(base + '/debug/disable/' + (topology.samplingPct || 10))));
  on('log-level', async () => {
    const current = await M.getOptional(base + '/logconfig').catch(() => null);
    const levels = current && current.namedLoggerLevels ? current.namedLoggerLevels : {};
    fill('log-levels', Object.keys(levels), name => [cell(name), cell(levels[name].target_level),
      cell(levels[name].timeout), cell(levels[name].timeout_epoch ? new Date(levels[name].timeout_epoch).toISOString() : '')]);
    if (!await M.ask('log-dialog')) return;
    act('Change log level', () => {
      const level = document.getElementById('log-level-select').value;
      const setting = {target_level: level || null, reset_level: 'INFO',
        timeout: M.wholeNumber('The timeout', 'log-timeout')};
      return post(base + '/logconfig', {namedLoggerLevels: {[document.getElementById('log-logger').value.trim() || 'ROOT']: setting}});
    });
  });
  document.getElementById('config-filter').addEventListener('input', () => M.configTable('config', 'config-filter', conf));
  M.every(2000, refresh);
})();
