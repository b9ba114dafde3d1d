// The cluster page (Storm's index.html): cluster, Nimbus, topology and supervisor summaries and Nimbus's configuration.
(() => {
  const {get, getOptional, cell, linkCell, fill, show, rate, every, configTable} = Microburst;
  let conf = {};

  async function refresh() {
    const cluster = await get('/api/v1/cluster/summary');
    document.getElementById('version').textContent = 'Storm API ' + cluster.stormVersion;
    fill('cluster', [cluster], c => [cell(c.stormVersion), cell(c.supervisors), cell(c.slotsUsed), cell(c.slotsFree),
      cell(c.slotsTotal), cell(c.executorsTotal), cell(c.tasksTotal)]);
    // each row's emitted (Microburst's field: the all-time count of the topology's page) makes the rate
    const summary = await get('/api/v1/topology/summary');
    const rows = summary.topologies.map(t => ({t, emitted: t.emitted || 0}));
    fill('topologies', rows, ({t, emitted}) => [
      linkCell(t.name, '/topology.html?id=' + encodeURIComponent(t.id)), cell(t.id),
      linkCell(t.owner, '/owner.html?id=' + encodeURIComponent(t.owner)), cell(t.status),
      cell(t.uptime), cell(t.workersTotal), cell(t.executorsTotal), cell(t.tasksTotal),
      cell(rate('topology:' + t.id, emitted))]);
    const nimbus = await getOptional('/api/v1/nimbus/summary');
    show('nimbus-section', nimbus !== null);
    if (nimbus) {
      fill('nimbuses', nimbus.nimbuses, n => [cell(n.host), cell(n.port), cell(n.status), cell(n.version),
        cell(n.nimbusUpTime)]);
    }
    const supervisors = await getOptional('/api/v1/supervisor/summary');
    show('supervisor-section', supervisors !== null);
    if (supervisors) {
      fill('supervisors', supervisors.supervisors, s => [
        linkCell(s.host, '/supervisor.html?host=' + encodeURIComponent(s.host)),
        linkCell(s.id, '/supervisor.html?id=' + encodeURIComponent(s.id)), cell(s.uptime), cell(s.slotsTotal),
        cell(s.slotsUsed), cell(s.version)]);
    }
  }

  async function loadConfiguration() {
    const loaded = await getOptional('/api/v1/cluster/configuration');
    show('config-section', loaded !== null);
    conf = loaded || {};
    configTable('config', 'config-filter', conf);
  }

  document.getElementById('config-filter').addEventListener('input', () => configTable('config', 'config-filter', conf));
  loadConfiguration().catch(Microburst.showError);
  every(2000, refresh);
})();
