// The topology page's upgrade and rollback (Microburst's POST .../upgrade and .../rollback, beside Storm's actions):
// an "Upgrade" dialog for the new jar, its main class and arguments, the wait, renamed components and states to start
// empty; a "Roll back" button, enabled once the topology was upgraded (the server keeps the previous version until the
// next upgrade or a kill). Both ask first and tell the result in the status line. Its own buttons and dialogs, built here.
(() => {
  const M = Microburst;
  const base = '/api/v1/topology/' + encodeURIComponent(M.params.get('id'));
  const actions = document.querySelector('p.actions');
  let name = '';

  function button(id, text) {
    const b = document.createElement('button');
    b.id = id;
    b.textContent = text;
    actions.insertBefore(b, document.getElementById('status-line'));
    return b;
  }

  function dialog(id, html) {
    const d = document.createElement('dialog');
    d.id = id;
    d.innerHTML = html;
    document.body.appendChild(d);
    return d;
  }

  const upgrade = button('upgrade', 'Upgrade');
  const rollback = button('rollback', 'Roll back');
  rollback.disabled = true;
  rollback.title = 'Enabled once the topology was upgraded';
  dialog('upgrade-dialog', `<form method="dialog">
    <h3>Upgrade <span class="upgrade-name"></span> to a new jar</h3>
    <p><small>Its main submits the new version; the old one runs until the new one is checked, then hands over its
      tuples in flight and its state.</small></p>
    <label>Jar <input id="upgrade-jar" type="file" accept=".jar"></label>
    <label>Main class <input id="upgrade-main" size="40" placeholder="com.example.WordCountTopology"></label>
    <label>Arguments (separated by spaces) <input id="upgrade-args" size="40"></label>
    <label>Wait for tuples in flight (seconds; empty: the message timeout) <input id="upgrade-wait" size="5"></label>
    <label>Renamed stateful components (OLD=NEW, separated by spaces) <input id="upgrade-rename" size="40"></label>
    <label>Components whose state starts empty (separated by spaces) <input id="upgrade-drop" size="40"></label>
    <p><button value="cancel">Cancel</button> <button id="upgrade-confirm" value="confirm">Upgrade</button></p>
  </form>`);
  dialog('rollback-dialog', `<form method="dialog">
    <h3>Roll <span class="upgrade-name"></span> back to the version before its last upgrade?</h3>
    <p><button value="cancel">Cancel</button> <button id="rollback-confirm" value="confirm">Roll back</button></p>
  </form>`);

  function words(id) {
    return document.getElementById(id).value.trim().split(/\s+/).filter(w => w);
  }

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

  function result(what, a) {
    return what + ': version ' + a.version + ' runs (' + a.topologyId + '), output gap ' + a.outputGapMs + ' ms';
  }

  function run(what, action) {
    M.say(what + '...');
    upgrade.disabled = rollback.disabled = true;
    action().then(a => { M.say(result(what, a)); M.showError(null); })
      .catch(e => { M.say(''); M.showError(e); })
      .finally(() => { upgrade.disabled = false; refresh(); });
  }

  upgrade.addEventListener('click', async () => {
    document.querySelectorAll('.upgrade-name').forEach(s => { s.textContent = name; });
    if (!await M.ask('upgrade-dialog')) return;
    run('Upgrade', async () => {
      const jar = document.getElementById('upgrade-jar').files[0];
      if (!jar) throw new Error('Choose the new jar to upgrade to');
      const query = new URLSearchParams();
      query.append('main', document.getElementById('upgrade-main').value.trim());
      words('upgrade-args').forEach(a => query.append('args', a));
      const wait = document.getElementById('upgrade-wait').value.trim();
      if (wait) query.append('wait', M.wholeNumber('The wait', wait));
      words('upgrade-rename').forEach(r => query.append('rename', r));
      words('upgrade-drop').forEach(c => query.append('dropState', c));
      return answer(await fetch(base + '/upgrade?' + query, {method: 'POST', body: jar,
        headers: {'X-Microburst-Token': M.token, 'Content-Type': 'application/java-archive'}}));
    });
  });

  rollback.addEventListener('click', async () => {
    document.querySelectorAll('.upgrade-name').forEach(s => { s.textContent = name; });
    if (!await M.ask('rollback-dialog')) return;
    run('Roll back', () => M.post(base + '/rollback'));
  });

  /** Roll back is possible once the topology was upgraded: its scheduler info tells the last upgrade. */
  async function refresh() {
    try {
      const t = await M.get(base);
      name = t.name;
      rollback.disabled = upgrade.disabled || !/^upgraded to version /.test(t.schedulerInfo || '');
    } catch (e) {
      // the page's own refresh reports what is wrong
    }
  }

  refresh();
  setInterval(refresh, 5000);
})();
