// The owner page (Storm's owner.html?id=OWNER): what an owner's topologies use, from /api/v1/owner-resources/OWNER.
// Runs on the page's event loop.
(() => {
  const {get, params, cell, linkCell, fill, every} = Microburst;
  const owner = params.get('id') || '';

  async function refresh() {
    const o = await get('/api/v1/owner-resources/' + encodeURIComponent(owner));
    fill('owner', [o], s => [cell(s.owner), cell(s.totalTopologies), cell(s.totalExecutors), cell(s.totalWorkers),
      cell(s.totalTasks), cell(s.totalMemoryUsage), cell(s.totalCpuUsage), cell(s.memoryGuarantee),
      cell(s.cpuGuarantee), cell(s.isolatedNodes)]);
    fill('topologies', o.topologies, t => [linkCell(t.name, '/topology.html?id=' + encodeURIComponent(t.id)),
      cell(t.id), cell(t.status), cell(t.uptime), cell(t.workersTotal), cell(t.executorsTotal), cell(t.tasksTotal)]);
  }

  if (!owner) Microburst.showError(new Error('no owner: open owner.html?id=OWNER, as the cluster page links it'));
  else every(2000, refresh);
})();
