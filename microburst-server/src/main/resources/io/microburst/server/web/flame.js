// The flame graph of a component's threads, drawn by Apache ECharts (served from its WebJar in the server's jar) as a
// sunburst: the component at the centre, its threads around it, then each thread's frames outward from Thread.run,
// each arc as wide as its share of the samples. It reads /api/v1/topology/ID/component/C/flamegraph?seconds=N.
const MicroburstFlame = (() => {
  let chart = null;
  let last = null;

  /** Flame colours, warm and stable per frame name; grey for a thread that was not running. */
  function colour(node) {
    let hash = 0;
    for (const ch of node.name) hash = (hash * 31 + ch.charCodeAt(0)) | 0;
    const idle = node.name.startsWith('[');
    node.itemStyle = {color: idle ? '#bbb' : 'hsl(' + (Math.abs(hash) % 50) + ', 85%, ' + (55 + Math.abs(hash >> 8) % 15) + '%)'};
    (node.children || []).forEach(colour);
    return node;
  }

  async function sample(componentBase, seconds) {
    document.getElementById('flame-cost').textContent = 'sampling for ' + seconds + ' s...';
    const result = await Microburst.get(componentBase + '/flamegraph?seconds=' + seconds);
    last = result;
    const element = document.getElementById('flame');
    element.hidden = false;
    chart = chart || echarts.init(element);
    chart.setOption({
      tooltip: {formatter: p => p.name + ': ' + p.value + ' samples (' +
        (100 * p.value / Math.max(1, result.tree.value)).toFixed(1) + '%)'},
      series: [{type: 'sunburst', data: [colour(result.tree)], radius: ['0%', '95%'], sort: undefined,
        nodeClick: 'rootToNode', emphasis: {focus: 'ancestor'},
        label: {rotate: 'radial', minAngle: 8, fontSize: 10, color: '#222', overflow: 'truncate', width: 90},
        itemStyle: {borderWidth: 1, borderColor: '#fff'}}]
    }, true);
    document.getElementById('flame-cost').textContent = result.samples + ' samples of ' + result.threads +
      (result.threads === 1 ? ' thread' : ' threads') + ' over ' + result.seconds + ' s; sampling took ' +
      result.samplingMs.toFixed(1) + ' ms (' + (100 * result.samplingMs / (1000 * result.seconds)).toFixed(2) +
      '% of one core; the interval grows to keep it under 5%)';
    return result;
  }

  /** The frames shown, by name, for people who read it with a script (and for the page tests). */
  function frames() {
    const names = [];
    const walk = node => { names.push(node.name); (node.children || []).forEach(walk); };
    if (last) walk(last.tree);
    return names;
  }

  return {sample, frames};
})();
