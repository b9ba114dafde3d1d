// The component page (Storm's component.html?id=COMPONENT&topology_id=TOPOLOGY): summary, debug and profiling actions,
// stats by window, input and output stats, executors with capacity and worker log links, and errors.
(() => {
  const M = Microburst;
  const {cell, linkCell, fill, say} = M;
  const component = M.params.get('id');
  const topologyId = M.params.get('topology_id');
  const selected = M.params.get('window') || ':all-time';
  const topologyBase = '/api/v1/topology/' + encodeURIComponent(topologyId);
  const base = topologyBase + '/component/' + encodeURIComponent(component);
  let current = null;

  if (!topologyId || !component) {
    M.showError('This page needs ?id=COMPONENT&topology_id=TOPOLOGY, as Storm\'s UI links it; open it from a topology page.');
    return;
  }

  const latencyOf = (c, row) => c.componentType === 'spout' ? row.completeLatency : row.executeLatency;
  const when = e => {
    const t = e.errorTime !== undefined ? e.errorTime : e.time;
    return t === undefined ? '' : new Date(t < 1e11 ? t * 1000 : t).toISOString();
  };

  async function refresh() {
    const c = await M.get(base + '?window=' + encodeURIComponent(selected));
    current = c;
    const back = document.getElementById('back');
    back.href = '/topology.html?id=' + encodeURIComponent(topologyId);
    back.textContent = '/ ' + c.name;
    document.getElementById('crumb').textContent = '/ ' + c.id;
    document.title = 'Microburst: ' + c.name + ' / ' + c.id;
    document.querySelectorAll('.window-name').forEach(e => { e.textContent = c.windowHint || selected; });
    fill('summary', [c], s => [cell(s.id), linkCell(s.name, back.href), cell(s.componentType), cell(s.executors),
      cell(s.tasks), cell(s.debug === undefined ? '' : s.debug ? 'on, ' + s.samplingPct + '%' : 'off')]);
    document.getElementById('debug').disabled = c.debug === true;
    document.getElementById('stop-debug').disabled = c.debug === false;
    const windows = c.componentType === 'spout' ? c.spoutSummary : c.boltStats;
    document.getElementById('stats-title').firstChild.textContent = (c.componentType === 'spout' ? 'Spout' : 'Bolt') + ' stats ';
    M.windowSelector('windows', windows, selected);
    fill('stats', windows, s => [linkCell(s.windowPretty, '?id=' + encodeURIComponent(component) + '&topology_id=' +
      encodeURIComponent(topologyId) + '&window=' + encodeURIComponent(s.window)), cell(s.emitted), cell(s.transferred),
      cell(latencyOf(c, s)), cell(s.executed), cell(s.acked), cell(s.failed)]);
    M.show('inputs-section', c.componentType === 'bolt' && Array.isArray(c.inputStats));
    fill('inputs', c.inputStats, s => [linkCell(s.component, '?id=' + encodeURIComponent(s.component) + '&topology_id=' +
      encodeURIComponent(topologyId)), cell(s.stream), cell(s.executeLatency), cell(s.executed), cell(s.processLatency),
      cell(s.acked), cell(s.failed)]);
    fill('streams', c.outputStats, s => [cell(s.stream), cell(s.emitted), cell(s.transferred), cell(s.completeLatency),
      cell(s.acked), cell(s.failed)]);
    fill('executors', c.executorStats, e => [cell(e.id), cell(e.uptime), cell(e.host), cell(e.port), cell(e.emitted),
      cell(e.transferred), cell(e.capacity), cell(latencyOf(c, e)), cell(e.executed), cell(e.acked), cell(e.failed),
      linkCell(e.workerLogLink ? 'log' : '', e.workerLogLink)]);
    fill('errors', c.componentErrors, e => [cell(when(e)),
      linkCell((e.errorHost || '') + (e.errorPort ? ':' + e.errorPort : ''), e.errorWorkerLogLink), cell(e.error)]);
  }

  function act(what, action) {
    say(what + '...');
    action().then(result => { say(what + ': done'); M.showError(null); refresh().catch(M.showError); return result; })
      .catch(e => { say(''); M.showError(e); });
  }

  /** Storm names a worker host:port in its profiling paths; here the one worker is the server's process. */
  function hostPort() {
    const e = current && current.executorStats[0];
    return e ? encodeURIComponent(e.host + ':' + e.port) : 'localhost:0';
  }

  function profile(what, path) {
    act(what, async () => {
      const result = await M.act(topologyBase + '/profiling/' + path);
      document.getElementById('profiling-result').textContent = JSON.stringify(result, null, 2);
      return result;
    });
  }

  const on = (id, listener) => document.getElementById(id).addEventListener('click', listener);
  on('debug', () => act('Debug', () => M.post(base + '/debug/enable/' + M.wholeNumber('The sampling percentage', 'debug-pct'))));
  on('stop-debug', () => act('Stop debug', () => M.post(base + '/debug/disable/' + M.wholeNumber('The sampling percentage', 'debug-pct'))));
  on('jstack', () => profile('Thread dump', 'dumpjstack/' + hostPort()));
  on('heap', () => profile('Heap dump', 'dumpheap/' + hostPort()));
  on('jfr-start', () => profile('Start JFR', 'start/' + hostPort() + '/' + M.wholeNumber('The minutes', 'jfr-minutes')));
  on('jfr-stop', () => profile('Stop JFR', 'stop/' + hostPort()));
  on('jfr-dump', () => profile('Dump JFR', 'dumpprofile/' + hostPort()));
  on('flame-sample', () => act('Flame graph', () => MicroburstFlame.sample(base, M.wholeNumber('The seconds', 'flame-seconds'))));
  M.every(2000, refresh);
})();
