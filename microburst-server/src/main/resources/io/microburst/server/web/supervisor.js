// The supervisor page (Storm's supervisor.html?id=ID or ?host=HOST): this machine's one supervisor and its workers,
// one per running topology, from /api/v1/supervisor. Runs on the page's event loop.
(() => {
  const {get, params, cell, linkCell, fill, every} = Microburst;
  const query = params.get('id') ? 'id=' + encodeURIComponent(params.get('id'))
    : 'host=' + encodeURIComponent(params.get('host') || '');

  async function refresh() {
    const answer = await get('/api/v1/supervisor?' + query);
    fill('supervisor', answer.supervisors, s => [cell(s.host), cell(s.id), cell(s.uptime), cell(s.slotsTotal),
      cell(s.slotsUsed), cell(s.slotsFree), cell(s.usedMem), cell(s.availMem), cell(s.usedCpu), cell(s.availCpu),
      cell(s.version)]);
    fill('workers', answer.workers, w => [cell(w.host), cell(w.port),
      linkCell(w.topologyName, '/topology.html?id=' + encodeURIComponent(w.topologyId)),
      linkCell(w.owner, '/owner.html?id=' + encodeURIComponent(w.owner)), cell(w.uptime), cell(w.executorsTotal),
      cell(w.assignedMemOnHeap + w.assignedMemOffHeap), cell(w.assignedCpu), linkCell('log', w.workerLogLink)]);
  }

  every(2000, refresh);
})();
