// Cells that show more than text: a queue's fill as a bar and a latency histogram as bars (SVG sized by the data).
const MicroburstCells = (() => {
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
  function histogram(counts, bounds) {
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

  /** Storm's error columns: where (host:port, linked to the worker's log when the API gives the link) and when. */
  function errorCells(row) {
    const {cell, linkCell} = Microburst;
    const where = row.errorHost ? row.errorHost + (row.errorPort ? ':' + row.errorPort : '') : '';
    const when = row.errorTime ? new Date(row.errorTime * (row.errorTime < 1e11 ? 1000 : 1)).toISOString()
      : row.errorLapsedSecs !== undefined && row.errorLapsedSecs !== null ? row.errorLapsedSecs + ' s ago' : '';
    return [linkCell(where, row.errorWorkerLogLink), cell(row.lastError), cell(when)];
  }

  return {fillBar, histogram, errorCells};
})();
