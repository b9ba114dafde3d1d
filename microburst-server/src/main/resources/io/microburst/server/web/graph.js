// The live topology graph, drawn by Cytoscape.js (served from its WebJar in the server's jar): one node per component
// with its rate, capacity and backpressure; one edge per subscription with its rate and the consumer's queue fill, drawn
// solid when the tuples pass as calls between fused tasks and dashed when they cross a queue between threads; components
// that share threads (fused chains) inside one box. It reads /api/v1/topology/ID/graph and turns two readings into rates,
// so it is current after every rebalance.
const MicroburstGraph = (() => {
  const style = [
    {selector: 'node', style: {
      'label': 'data(label)', 'text-wrap': 'wrap', 'text-valign': 'center', 'text-halign': 'center', 'font-size': 11,
      'shape': 'round-rectangle', 'width': 150, 'height': 58, 'border-width': 'data(border)', 'border-color': '#c22',
      'background-color': 'mapData(capacity, 0, 1, #d8ecff, #ff6b5b)'}},
    {selector: 'node[type = "spout"]', style: {'shape': 'round-tag', 'background-color': '#ffe3b3'}},
    {selector: 'node[border = 1]', style: {'border-color': '#557'}},
    {selector: ':parent', style: {
      'label': 'data(label)', 'text-valign': 'top', 'text-halign': 'center', 'shape': 'round-rectangle',
      'background-color': '#f3f0ff', 'border-style': 'dashed', 'border-color': '#7a5cc2', 'border-width': 1,
      'padding': 12, 'font-size': 11}},
    {selector: 'edge', style: {
      'label': 'data(label)', 'text-wrap': 'wrap', 'font-size': 10, 'curve-style': 'bezier',
      'target-arrow-shape': 'triangle', 'width': 'data(width)', 'line-style': 'dashed',
      'line-color': 'mapData(fill, 0, 1, #8a8a8a, #e00000)', 'target-arrow-color': 'mapData(fill, 0, 1, #8a8a8a, #e00000)',
      'text-background-color': '#fff', 'text-background-opacity': 0.85, 'text-background-padding': 2,
      'text-margin-y': -14}},
    {selector: 'edge[fused = "all"]', style: {'line-style': 'solid', 'line-color': '#7a5cc2', 'target-arrow-color': '#7a5cc2'}},
    {selector: 'edge[fused = "some"]', style: {'line-style': 'dotted'}}
  ];

  function perSecond(now, before, key, dt) {
    if (!before || dt <= 0) return 0;
    return Math.max(0, (now[key] - (before[key] || 0)) * 1000 / dt);
  }

  /** Per component and per edge: counters summed over tasks, and what the threads hold. */
  function measure(g) {
    const components = {};
    g.components.forEach(c => {
      components[c.id] = {id: c.id, type: c.type, threads: 0, tasks: 0, emitted: 0, executed: 0, busy: {}, bp: {},
        fill: 0};
    });
    const edges = {};
    g.edges.forEach(e => { edges[e.from + '>' + e.to + ':' + e.stream] = Object.assign({executed: 0}, e); });
    const threadsOf = {};
    g.threads.forEach(t => {
      const here = new Set(t.tasks.map(k => k.component));
      here.forEach(c => {
        (threadsOf[c] = threadsOf[c] || []).push(here);
        if (!components[c]) return;
        components[c].threads++;
        components[c].bp[t.name] = t.backpressureMs;
        components[c].fill = Math.max(components[c].fill, t.queueCapacity > 0 ? t.queued / t.queueCapacity : 0);
      });
      t.tasks.forEach(k => {
        const c = components[k.component];
        if (!c) return;
        c.tasks++;
        c.emitted += k.emitted;
        c.executed += k.executed;
        c.busy[t.name] = (c.busy[t.name] || 0) + k.busyMs;
        k.inputs.forEach(i => {
          const e = edges[i.component + '>' + k.component + ':' + i.stream];
          if (e) e.executed += i.executed;
        });
      });
    });
    Object.values(edges).forEach(e => {
      const consumerThreads = threadsOf[e.to] || [];
      const fusedThreads = consumerThreads.filter(s => s.has(e.from)).length;
      e.fused = fusedThreads === 0 ? 'none' : fusedThreads === consumerThreads.length ? 'all' : 'some';
    });
    return {components, edges, threadsOf};
  }

  /** Components that share a thread, joined: each such chain is drawn as one box. */
  function chains(threadsOf, ids) {
    const parent = {};
    ids.forEach(id => { parent[id] = id; });
    const root = id => (parent[id] === id ? id : (parent[id] = root(parent[id])));
    Object.values(threadsOf).forEach(sets => sets.forEach(set => {
      const members = [...set].filter(id => parent[id] !== undefined);
      members.slice(1).forEach(m => { parent[root(m)] = root(members[0]); });
    }));
    const groups = {};
    ids.forEach(id => { (groups[root(id)] = groups[root(id)] || []).push(id); });
    return Object.values(groups).filter(g => g.length > 1);
  }

  function number(x) {
    return x >= 100 ? Math.round(x).toLocaleString('en') : x.toFixed(1);
  }

  function create(container, topologyId) {
    const cy = cytoscape({container, style, elements: [], wheelSensitivity: 0.2, minZoom: 0.3, maxZoom: 2});
    let before = null;
    let shape = '';
    cy.on('tap', 'node[type]', event => {
      location.href = '/component.html?id=' + encodeURIComponent(event.target.data('component')) +
        '&topology_id=' + encodeURIComponent(topologyId);
    });

    function update(g) {
      const now = measure(g);
      const dt = before ? g.atMs - before.atMs : 0;
      const groups = chains(now.threadsOf, Object.keys(now.components));
      const chainOf = {};
      groups.forEach((members, i) => members.forEach(m => { chainOf[m] = 'chain' + i; }));
      const newShape = JSON.stringify([Object.keys(now.components), Object.keys(now.edges), groups]);
      if (newShape !== shape) {
        cy.elements().remove();
        cy.add(groups.map((members, i) => ({group: 'nodes', data: {id: 'chain' + i}})));
        cy.add(Object.values(now.components).map(c => ({group: 'nodes',
          data: {id: 'c:' + c.id, component: c.id, type: c.type, parent: chainOf[c.id], capacity: 0, border: 1}})));
        cy.add(Object.values(now.edges).map(e => ({group: 'edges',
          data: {id: 'e:' + e.from + '>' + e.to + ':' + e.stream, source: 'c:' + e.from, target: 'c:' + e.to, width: 1,
            fill: 0, fused: e.fused}})));
      }
      groups.forEach((members, i) => {
        const threads = new Set();
        g.threads.forEach(t => { if (t.tasks.some(k => members.includes(k.component))) threads.add(t.name); });
        cy.getElementById('chain' + i).data('label', 'fused: ' + members.join(' + ') + ' on ' + threads.size +
          (threads.size === 1 ? ' thread' : ' threads'));
      });
      const old = before ? before.m : null;
      Object.values(now.components).forEach(c => {
        const o = old && old.components[c.id];
        const rate = perSecond(c, o, c.type === 'spout' ? 'emitted' : 'executed', dt);
        let capacity = 0;
        let bp = 0;
        Object.keys(c.busy).forEach(t => {
          const was = o && o.busy[t] !== undefined ? o.busy[t] : null;
          if (was !== null && dt > 0) capacity = Math.max(capacity, (c.busy[t] - was) / dt);
        });
        Object.keys(c.bp).forEach(t => {
          const was = o && o.bp[t] !== undefined ? o.bp[t] : null;
          if (was !== null && dt > 0) bp = Math.max(bp, (c.bp[t] - was) * 1000 / dt);
        });
        const node = cy.getElementById('c:' + c.id);
        const tasks = c.tasks === c.threads ? '' : ', ' + c.tasks + ' tasks';
        node.data({rate, capacity: Math.min(1, capacity), capacityValue: capacity, backpressure: bp, threads: c.threads,
          tasks: c.tasks, fill: c.fill, border: bp >= 1 ? Math.min(8, 2 + Math.round(bp / 100)) : 1,
          label: c.id + ' \u00d7' + c.threads + (c.threads === 1 ? ' thread' : ' threads') + tasks + '\n' +
            number(rate) + '/s' + (c.type === 'bolt' ? ' \u00b7 capacity ' + capacity.toFixed(3) : '') +
            (bp >= 1 ? '\nbackpressure ' + Math.round(bp) + ' ms/s' : '')});
      });
      const rates = Object.values(now.edges).map(e => perSecond(e, old && old.edges[e.from + '>' + e.to + ':' + e.stream],
        'executed', dt));
      const top = Math.max(1, ...rates);
      Object.values(now.edges).forEach((e, i) => {
        const fill = e.fused === 'all' ? 0 : now.components[e.to].fill;
        const how = e.fused === 'all' ? 'calls (fused)' : e.fused === 'some' ? 'calls and queue' : 'queue ' +
          Math.round(100 * fill) + '% full';
        cy.getElementById('e:' + e.from + '>' + e.to + ':' + e.stream).data({rate: rates[i], fill, fused: e.fused,
          width: 1 + 7 * rates[i] / top,
          label: e.stream + ' (' + e.grouping + ')\n' + number(rates[i]) + '/s \u00b7 ' + how});
      });
      if (newShape !== shape) {
        cy.nodes(':childless').union(cy.edges()).layout({name: 'breadthfirst', directed: true, spacingFactor: 1.1, padding: 20,
          roots: cy.nodes('[type = "spout"]'), transform: (node, p) => ({x: p.y * 1.6, y: p.x * 0.8})}).run();
        cy.fit(undefined, 30);
        if (cy.zoom() > 1.4) cy.zoom(1.4).center();
        shape = newShape;
      }
      before = {atMs: g.atMs, m: now};
    }

    /** What the graph shows now, for people who read it with a script (and for the page tests). */
    function read() {
      return {nodes: cy.nodes('[type]').map(n => n.data()), edges: cy.edges().map(e => e.data()),
        chains: cy.nodes(':parent').map(n => n.data('label'))};
    }

    return {update, read, cy};
  }

  return {create};
})();
