// The pages of microburst server: they read the Storm UI REST API of the same server and never anything else.
const Microburst = (() => {
  const token = document.querySelector('meta[name="microburst-token"]').content;
  const params = new URLSearchParams(location.search);
  const previous = {};

  async function get(path) {
    const response = await fetch(path, {cache: 'no-store'});
    const body = await response.json();
    if (!response.ok) throw new Error(body.errorMessage || body.error || response.statusText);
    return body;
  }

  async function post(path) {
    const response = await fetch(path, {method: 'POST', headers: {'X-Microburst-Token': token}});
    const body = await response.json();
    if (!response.ok) throw new Error(body.errorMessage || body.error || response.statusText);
    return body;
  }

  function cell(text) {
    const td = document.createElement('td');
    td.textContent = text === undefined || text === null ? '' : String(text);
    return td;
  }

  function linkCell(text, href) {
    const td = document.createElement('td');
    const a = document.createElement('a');
    a.href = href;
    a.textContent = text;
    td.appendChild(a);
    return td;
  }

  function fill(tableId, rows, toCells) {
    const body = document.querySelector('#' + tableId + ' tbody') || document.getElementById(tableId);
    body.replaceChildren(...rows.map(row => {
      const tr = document.createElement('tr');
      toCells(row).forEach(td => tr.appendChild(td));
      return tr;
    }));
  }

  function keyValues(tableId, pairs) {
    fill(tableId, pairs, ([k, v]) => [cell(k), cell(v)]);
  }

  /** Tuples per second since the previous look at the same counter, or '' the first time. */
  function rate(key, count) {
    const now = performance.now();
    const before = previous[key];
    previous[key] = {count, now};
    if (!before || now <= before.now) return '';
    return ((count - before.count) * 1000 / (now - before.now)).toFixed(1);
  }

  function showError(e) {
    document.getElementById('error').textContent = e ? String(e.message || e) : '';
  }

  function every(ms, refresh) {
    const run = () => refresh().then(() => showError(null), showError);
    run();
    setInterval(run, ms);
  }

  function allTime(stats) {
    return stats.find(s => s.window === ':all-time') || {};
  }

  function clusterPage() {
    every(2000, async () => {
      const cluster = await get('/api/v1/cluster/summary');
      keyValues('cluster', [['Storm API', cluster.stormVersion], ['Topologies', cluster.topologies],
        ['Executors', cluster.executorsTotal], ['Tasks', cluster.tasksTotal]]);
      const summary = await get('/api/v1/topology/summary');
      const rows = await Promise.all(summary.topologies.map(async t => {
        const detail = await get('/api/v1/topology/' + encodeURIComponent(t.id));
        return {t, emitted: allTime(detail.topologyStats).emitted || 0};
      }));
      fill('topologies', rows, ({t, emitted}) => [
        linkCell(t.name, '/topology.html?id=' + encodeURIComponent(t.id)), cell(t.status), cell(t.uptime),
        cell(t.executorsTotal), cell(t.tasksTotal), cell(rate('topology:' + t.id, emitted))]);
    });
  }

  function drawGraph(graph) {
    const svg = document.getElementById('graph');
    const ns = 'http://www.w3.org/2000/svg';
    const depth = {};
    const names = Object.keys(graph);
    const level = name => {
      if (depth[name] !== undefined) return depth[name];
      depth[name] = 0;
      const inputs = graph[name][':inputs'].filter(i => graph[i[':component']] && i[':component'] !== name);
      depth[name] = inputs.length ? 1 + Math.max(...inputs.map(i => level(i[':component']))) : 0;
      return depth[name];
    };
    names.forEach(level);
    const rows = {};
    const position = {};
    names.forEach(n => {
      const col = depth[n];
      rows[col] = (rows[col] || 0) + 1;
      position[n] = {x: 20 + col * 180, y: 20 + (rows[col] - 1) * 70};
    });
    svg.replaceChildren();
    const defs = document.createElementNS(ns, 'defs');
    defs.innerHTML = '<marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z"/></marker>';
    svg.appendChild(defs);
    names.forEach(n => graph[n][':inputs'].forEach(i => {
      const from = position[i[':component']];
      if (!from) return;
      const line = document.createElementNS(ns, 'line');
      line.setAttribute('x1', from.x + 140); line.setAttribute('y1', from.y + 20);
      line.setAttribute('x2', position[n].x); line.setAttribute('y2', position[n].y + 20);
      const title = document.createElementNS(ns, 'title');
      title.textContent = i[':stream'] + ' (' + i[':grouping'] + ')';
      line.appendChild(title);
      svg.appendChild(line);
    }));
    names.forEach(n => {
      const g = document.createElementNS(ns, 'g');
      const rect = document.createElementNS(ns, 'rect');
      rect.setAttribute('class', graph[n][':type']);
      rect.setAttribute('x', position[n].x); rect.setAttribute('y', position[n].y);
      rect.setAttribute('width', 140); rect.setAttribute('height', 40); rect.setAttribute('rx', 6);
      const text = document.createElementNS(ns, 'text');
      text.setAttribute('x', position[n].x + 8); text.setAttribute('y', position[n].y + 24);
      text.textContent = n + ' \u00d7' + graph[n][':parallelism'];
      g.append(rect, text);
      svg.appendChild(g);
    });
  }

  function fillBar(queued, capacity) {
    const td = document.createElement('td');
    const outer = document.createElement('div');
    const share = capacity > 0 ? Math.min(1, queued / capacity) : 0;
    outer.className = share >= 0.9 ? 'fill high' : 'fill';
    outer.title = (100 * share).toFixed(1) + '% full';
    const inner = document.createElement('div');
    inner.style.width = (100 * share).toFixed(1) + '%';
    outer.appendChild(inner);
    td.appendChild(outer);
    return td;
  }

  /** Bars of a latency histogram's buckets, each as high as its share of the largest bucket. */
  function histogramCell(counts, bounds) {
    const ns = 'http://www.w3.org/2000/svg';
    const td = document.createElement('td');
    const svg = document.createElementNS(ns, 'svg');
    const width = 8;
    const height = 30;
    svg.setAttribute('class', 'hist');
    svg.setAttribute('width', counts.length * width);
    svg.setAttribute('height', height);
    const most = Math.max(1, ...counts);
    counts.forEach((c, i) => {
      const rect = document.createElementNS(ns, 'rect');
      const h = c > 0 ? Math.max(1, Math.round(height * c / most)) : 0;
      rect.setAttribute('x', i * width); rect.setAttribute('width', width - 1);
      rect.setAttribute('y', height - h); rect.setAttribute('height', h);
      const title = document.createElementNS(ns, 'title');
      title.textContent = '<= ' + bounds[i] + ' s: ' + c;
      rect.appendChild(title);
      svg.appendChild(rect);
    });
    td.appendChild(svg);
    return td;
  }

  async function refreshRuntime(base) {
    const r = await get(base + '/runtime');
    fill('threads', r.threads, t => {
      const tasks = cell(t.tasks.map(k => k.component + ':' + k.task).join(' + '));
      tasks.className = 'tasks';
      return [cell(t.name), tasks, fillBar(t.queued, t.queueCapacity), cell(t.queued + ' / ' + t.queueCapacity),
        cell(rate('bp:' + t.name, t.backpressureMs)), cell(t.backpressureMs.toFixed(1))];
    });
    fill('latencies', r.latencies, l => [cell(l.component), cell(l.kind), cell(l.samples), cell(l.p50Ms.toFixed(3)),
      cell(l.p90Ms.toFixed(3)), cell(l.p99Ms.toFixed(3)), cell(l.p999Ms.toFixed(3)), cell(l.maxMs.toFixed(3)),
      histogramCell(l.buckets, r.bucketBoundsSeconds)]);
  }

  function topologyPage() {
    const id = params.get('id');
    const base = '/api/v1/topology/' + encodeURIComponent(id);
    document.querySelectorAll('button[data-action]').forEach(button => button.addEventListener('click', () =>
      post(base + '/' + button.dataset.action).then(() => showError(null), showError)));
    get(base + '/visualization').then(drawGraph, showError);
    every(2000, async () => {
      const t = await get(base);
      document.getElementById('name').textContent = t.name;
      document.title = 'Microburst: ' + t.name;
      keyValues('summary', [['Id', t.id], ['Status', t.status], ['Uptime', t.uptime], ['Executors', t.executorsTotal],
        ['Tasks', t.tasksTotal], ['Message timeout (s)', t.msgTimeout]]);
      fill('stats', t.topologyStats, s => [cell(s.windowPretty), cell(s.emitted), cell(s.transferred),
        cell(s.completeLatency), cell(s.acked), cell(s.failed)]);
      const componentLink = c => '/component.html?id=' + encodeURIComponent(id) + '&component=' + encodeURIComponent(c);
      fill('spouts', t.spouts, s => [linkCell(s.spoutId, componentLink(s.spoutId)), cell(s.executors), cell(s.tasks),
        cell(s.emitted), cell(s.transferred), cell(s.completeLatency), cell(s.acked), cell(s.failed), cell(s.lastError)]);
      fill('bolts', t.bolts, b => [linkCell(b.boltId, componentLink(b.boltId)), cell(b.executors), cell(b.tasks),
        cell(b.emitted), cell(b.executed), cell(b.executeLatency), cell(b.processLatency), cell(b.acked), cell(b.failed),
        cell(b.lastError)]);
      const components = t.spouts.map(s => ({id: s.spoutId, type: 'spout', emitted: s.emitted, executed: 0, acked: s.acked}))
        .concat(t.bolts.map(b => ({id: b.boltId, type: 'bolt', emitted: b.emitted, executed: b.executed, acked: b.acked})));
      fill('rates', components, c => [cell(c.id), cell(c.type), cell(rate('e:' + c.id, c.emitted)),
        cell(rate('x:' + c.id, c.executed)), cell(rate('a:' + c.id, c.acked))]);
      await refreshRuntime(base);
    });
  }

  function componentPage() {
    const id = params.get('id');
    const component = params.get('component');
    document.getElementById('back').href = '/topology.html?id=' + encodeURIComponent(id);
    every(2000, async () => {
      const c = await get('/api/v1/topology/' + encodeURIComponent(id) + '/component/' + encodeURIComponent(component));
      document.getElementById('name').textContent = c.name + ' / ' + c.id + ' (' + c.componentType + ')';
      fill('executors', c.executorStats, e => [cell(e.id), cell(e.uptime), cell(e.emitted), cell(e.transferred),
        cell(e.acked), cell(e.failed)]);
      fill('streams', c.outputStats, s => [cell(s.stream), cell(s.emitted), cell(s.transferred)]);
      fill('errors', c.componentErrors, e => [cell(new Date(e.errorTime).toISOString()), cell(e.error)]);
    });
  }

  return {clusterPage, topologyPage, componentPage};
})();
