// What every page of microburst server shares: reading the Storm UI REST API of the same server (and nothing else),
// sending actions with the server's token, and filling tables. Each page has its own script beside this one.
const Microburst = (() => {
  const token = document.querySelector('meta[name="microburst-token"]').content;
  const params = new URLSearchParams(location.search);
  const previous = {};

  async function answer(response) {
    const text = await response.text();
    let body;
    try {
      body = text ? JSON.parse(text) : {};
    } catch (e) {
      body = {errorMessage: text};
    }
    if (!response.ok) throw new Error(body.errorMessage || body.error || response.statusText);
    return body;
  }

  async function get(path) {
    return answer(await fetch(path, {cache: 'no-store'}));
  }

  /** The answer of an endpoint this server may not have: null when it answers 404. */
  async function getOptional(path) {
    const response = await fetch(path, {cache: 'no-store'});
    return response.status === 404 ? null : answer(response);
  }

  /** Storm's profiling operations are GETs that act: they carry the token too. */
  async function act(path) {
    return answer(await fetch(path, {cache: 'no-store', headers: {'X-Microburst-Token': token}}));
  }

  /** A state-changing request, with the server's token as the REST API asks; body, if any, as JSON. */
  async function post(path, body) {
    const headers = {'X-Microburst-Token': token};
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return answer(await fetch(path, {method: 'POST', headers,
      body: body === undefined ? undefined : JSON.stringify(body)}));
  }

  function cell(text, title) {
    const td = document.createElement('td');
    td.textContent = text === undefined || text === null ? '' : String(text);
    if (title) td.title = title;
    return td;
  }

  function linkCell(text, href) {
    const td = document.createElement('td');
    if (href) {
      const a = document.createElement('a');
      a.href = href;
      a.textContent = text;
      td.appendChild(a);
    } else {
      td.textContent = text;
    }
    return td;
  }

  /**
   * Fills a table's body with a row per item. Only cells whose content changed are replaced, so a link or a selection
   * a person is about to use stays put across the page's refreshes.
   */
  function fill(tableId, rows, toCells) {
    const body = document.querySelector('#' + tableId + ' tbody') || document.getElementById(tableId);
    const items = rows || [];
    while (body.rows.length > items.length) body.deleteRow(-1);
    items.forEach((item, i) => {
      const cells = toCells(item);
      const tr = body.rows[i] || body.appendChild(document.createElement('tr'));
      while (tr.cells.length > cells.length) tr.deleteCell(-1);
      cells.forEach((td, j) => {
        const old = tr.cells[j];
        if (!old) tr.appendChild(td);
        else if (!old.isEqualNode(td)) tr.replaceChild(td, old);
      });
    });
  }

  function keyValues(tableId, pairs) {
    fill(tableId, pairs.filter(([, v]) => v !== undefined), ([k, v]) => [cell(k), cell(v)]);
  }

  /** Shows a section only when its data exists on this server. */
  function show(id, visible) {
    document.getElementById(id).hidden = !visible;
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

  /** Tells the result of an action in the status line. */
  function say(text) {
    document.getElementById('status-line').textContent = text;
  }

  function every(ms, refresh) {
    const run = () => refresh().then(() => showError(null), showError);
    run();
    return setInterval(run, ms);
  }

  /** Storm's windows, as its UI links them: the selected one is kept in the page's URL. */
  function windowSelector(elementId, stats, selected) {
    const element = document.getElementById(elementId);
    element.replaceChildren(...stats.map(s => {
      const a = document.createElement('a');
      const url = new URLSearchParams(location.search);
      url.set('window', s.window);
      a.href = '?' + url.toString();
      a.textContent = s.windowPretty;
      if (s.window === selected) a.className = 'selected';
      return a;
    }));
  }

  /** The configuration as a filterable key/value table. */
  function configTable(tableId, filterId, conf) {
    const filter = (document.getElementById(filterId).value || '').toLowerCase();
    const rows = Object.keys(conf || {}).sort().filter(k => k.toLowerCase().includes(filter))
      .map(k => [k, JSON.stringify(conf[k])]);
    fill(tableId, rows, ([k, v]) => [cell(k), cell(v)]);
  }

  /** Opens a dialog; resolves with true when its confirming button is pressed. */
  function ask(dialogId) {
    const dialog = document.getElementById(dialogId);
    return new Promise(resolve => {
      dialog.addEventListener('close', () => resolve(dialog.returnValue === 'confirm'), {once: true});
      dialog.showModal();
    });
  }

  /** The whole number typed in a field (an element id) or given as text; an error naming it otherwise. */
  function wholeNumber(what, field) {
    const element = document.getElementById(field);
    const text = (element ? element.value : String(field)).trim();
    if (!/^\d+$/.test(text)) throw new Error(what + ' must be a whole number, 0 or more: "' + text + '"');
    return parseInt(text, 10);
  }

  function ms(value) {
    return value === undefined || value === null ? '' : String(value);
  }

  return {token, params, get, getOptional, act, post, cell, linkCell, fill, keyValues, show, rate, showError, say, every,
    windowSelector, configTable, ask, wholeNumber, ms};
})();
