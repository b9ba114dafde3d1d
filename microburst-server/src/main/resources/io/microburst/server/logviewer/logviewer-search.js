// The logviewer's two search pages: one file (logviewer_search.html?file=&search=&offset=), or a topology's worker
// logs (deep_search_result.html?id=&search=&count=&port=&search-archived=). Both read this logviewer's own search
// API and show each match in its context with a link to the log page centred on it.
(() => {
  const params = new URLSearchParams(location.search);
  const form = document.getElementById('search-form');
  const body = document.querySelector('#results tbody');
  const mode = document.body.dataset.search;

  for (const input of form.elements) {
    if (!input.name || !params.has(input.name)) continue;
    if (input.type === 'checkbox') input.checked = !['', 'false', 'off', 'no'].includes(params.get(input.name));
    else input.value = params.get(input.name);
  }

  function cell(row, text) {
    const td = row.insertCell();
    td.textContent = text;
    return td;
  }

  function addMatch(file, match) {
    const row = body.insertRow();
    if (file !== null) cell(row, file);
    const offset = row.insertCell();
    const link = document.createElement('a');
    link.href = match.logviewerURL;
    link.textContent = match.byteOffset;
    offset.append(link);
    const context = row.insertCell();
    context.className = 'match';
    const found = document.createElement('b');
    found.textContent = match.matchString;
    context.append(match.beforeString, found, match.afterString);
  }

  async function json(url) {
    const response = await fetch(url, {cache: 'no-store'});
    const answer = await response.json().catch(() => ({errorMessage: response.statusText}));
    if (!response.ok) throw new Error(answer.errorMessage || answer.error || response.statusText);
    return answer;
  }

  function done(count, nextHref) {
    document.getElementById('results').hidden = count === 0;
    const more = document.getElementById('more');
    more.textContent = count === 0 ? 'No match.' : '';
    if (nextHref) {
      const next = document.createElement('a');
      next.href = nextHref;
      next.textContent = 'Next matches';
      more.append(next);
    }
  }

  async function searchFile() {
    const file = params.get('file') || '';
    const back = document.createElement('a');
    back.href = '/api/v1/log?file=' + encodeURIComponent(file);
    back.textContent = file;
    document.getElementById('file').append(back);
    if (!params.get('search')) return;
    const answer = await json('/api/v1/search?file=' + encodeURIComponent(file) + '&search-string='
      + encodeURIComponent(params.get('search')) + '&num-matches=20&start-byte-offset='
      + encodeURIComponent(params.get('offset') || '0'));
    answer.matches.forEach(m => addMatch(null, m));
    let next = null;
    if (answer.nextByteOffset !== undefined) {
      const p = new URLSearchParams(params);
      p.set('offset', answer.nextByteOffset);
      next = 'logviewer_search.html?' + p;
    }
    done(answer.matches.length, next);
  }

  async function searchTopology() {
    const id = params.get('id');
    document.getElementById('file').textContent = id || '';
    if (!id || !params.get('search')) return;
    const query = new URLSearchParams({'search-string': params.get('search'), 'num-matches': params.get('count') || '1',
      port: params.get('port') || '*'});
    if (params.has('search-archived')) query.set('search-archived', params.get('search-archived') || 'on');
    const answer = await json('/api/v1/deepSearch/' + encodeURIComponent(id) + '?' + query);
    const ports = Array.isArray(answer) ? answer : [answer];
    let count = 0;
    for (const port of ports) {
      for (const file of port.matches) {
        file.matches.forEach(m => addMatch(file.fileName, m));
        count += file.matches.length;
      }
    }
    done(count, null);
  }

  (mode === 'file' ? searchFile() : searchTopology())
    .catch(e => { document.getElementById('error').textContent = e.message; });
})();
