// A real browser on `worldsweep serve`: headless Chromium driven over the DevTools protocol
// (Node 20+ with --experimental-websocket, or 22+; no packages). Loads the catalog and waits for
// the live run's worlds-done cell to change twice through the event stream; opens the running
// tune's page and waits for its convergence to grow by two generations; opens the finished run's replay,
// moves a slider with the arrow key, waits for the animation to end, replays a world picked on the
// chart of worlds.csv into pane B; back on the tune's page waits for its answer and replays the
// answer's world. Takes screenshots at 1280 and 390 px. Prints one JSON line: what the pages showed
// (each replay's command, final rows and last drawn frame; the tune's generations and answer).
//   node --experimental-websocket scripts/serve-browser.js URL LIVE_RUN DONE_RUN TUNE_RUN SHOTS_DIR
const { spawn } = require('child_process');
const fs = require('fs'), os = require('os'), path = require('path');
const [url, liveRun, doneRun, tuneRun, shots] = process.argv.slice(2);
const sleep = ms => new Promise(r => setTimeout(r, ms));
const browserPath = ['chromium', 'chromium-browser', 'google-chrome'].find(b =>
  process.env.PATH.split(':').some(d => fs.existsSync(path.join(d, b))));
if (!browserPath) { console.error('serve-browser: no Chromium (apt-get install -y chromium)'); process.exit(1); }
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'serve-browser-'));
const browser = spawn(browserPath, ['--headless=new', '--no-sandbox', '--disable-gpu', '--hide-scrollbars',
  '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
let failed = false;
function finish(code) { browser.kill(); try { fs.rmSync(profile, { recursive: true, force: true }); } catch {} process.exit(code); }
process.on('unhandledRejection', e => { console.error('serve-browser: ' + e.message); finish(1); });

(async () => {
  const devtools = await new Promise((resolve, reject) => {
    let text = '';
    browser.stderr.on('data', d => { text += d; const m = text.match(/ws:\/\/127\.0\.0\.1:(\d+)\//); if (m) resolve(m[1]); });
    setTimeout(() => reject(new Error('Chromium did not start')), 30000);
  });
  const pages = await (await fetch(`http://127.0.0.1:${devtools}/json/list`)).json();
  const ws = new WebSocket(pages.find(p => p.type === 'page').webSocketDebuggerUrl);
  await new Promise(r => ws.onopen = r);
  let id = 0; const pending = new Map();
  ws.onmessage = e => { const m = JSON.parse(e.data); const p = pending.get(m.id); if (!p) return;
    pending.delete(m.id); m.error ? p.reject(new Error(JSON.stringify(m.error))) : p.resolve(m.result); };
  const send = (method, params = {}) => new Promise((resolve, reject) => { const i = ++id; pending.set(i, { resolve, reject });
    ws.send(JSON.stringify({ id: i, method, params })); });
  const js = async expr => (await send('Runtime.evaluate', { expression: expr, awaitPromise: true, returnByValue: true })).result.value;
  const waitFor = async (expr, seconds, what) => { const end = Date.now() + seconds * 1000;
    while (Date.now() < end) { if (await js(expr)) return; await sleep(200); } throw new Error('timed out: ' + what); };
  const width = (w, h) => send('Emulation.setDeviceMetricsOverride', { width: w, height: h || (w > 500 ? 1100 : 1500), deviceScaleFactor: 1, mobile: w < 500 });
  const shot = async name => { const r = await send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: false });
    fs.writeFileSync(path.join(shots, name), Buffer.from(r.data, 'base64')); console.error('serve-browser: ' + path.join(shots, name)); };
  const go = async u => { await send('Page.navigate', { url: u }); await sleep(300); await waitFor('document.readyState==="complete"', 30, 'page load ' + u); };
  const key = async k => { for (const type of ['keyDown', 'keyUp'])
    await send('Input.dispatchKeyEvent', { type, key: k, code: k, windowsVirtualKeyCode: k === 'ArrowRight' ? 39 : 37 }); };
  await send('Page.enable'); await send('Runtime.enable');

  // 1. The catalog, following the live run through the event stream.
  await width(1280);
  await go(url);
  const cell = `((document.querySelector('tr[data-path="${liveRun}"] td.worlds')||{}).textContent||'')`;
  await waitFor(`${cell}!==''`, 60, 'the live run in the catalog');
  const seen = [await js(cell)];
  while (seen.length < 3) { await waitFor(`${cell}!==${JSON.stringify(seen[seen.length - 1])}`, 300, 'the live run to advance'); seen.push(await js(cell)); }
  const updates = await js('+document.body.dataset.updates');
  console.error(`serve-browser: live run's worlds cell went ${seen.join(' → ')} (${updates} updates pushed)`);
  await shot('serve-catalog-1280.png');
  await width(390); await sleep(400); await shot('serve-catalog-390.png'); await width(1280);

  // 2. The running tune's page: its convergence grows as the search records generations.
  await go(url + 'tune?run=' + encodeURIComponent(tuneRun));
  const generations = `(+document.body.dataset.generations||0)`;
  await waitFor(`${generations}>0`, 300, 'the tune\'s first generation');
  const tuneSeen = [await js(generations)];
  while (tuneSeen.length < 3) {
    await waitFor(`${generations}>${tuneSeen[tuneSeen.length - 1]}`, 300, 'the search to advance');
    if (await js(`document.body.dataset.state`) !== 'running') throw new Error('the tune ended before the page saw it advance');
    tuneSeen.push(await js(generations));
  }
  const rowsShown = await js(`document.querySelectorAll('#generations tr').length`);
  if (rowsShown !== tuneSeen[tuneSeen.length - 1]) throw new Error(`the table shows ${rowsShown} generations, not ${tuneSeen[tuneSeen.length - 1]}`);
  console.error(`serve-browser: the running tune's generations went ${tuneSeen.join(' → ')} on its page`);
  await width(1280, 1500); await sleep(400); await shot('serve-tune-1280.png');
  await width(390, 2000); await sleep(400); await shot('serve-tune-390.png');

  // 3. The finished run's replay: a slider moved by key, then world 3 into pane B.
  await width(1280);
  await go(url);
  await waitFor(`!!document.querySelector('tr[data-path="${doneRun}"] a.replay')`, 60, 'the catalog again');
  const href = await js(`(document.querySelector('tr[data-path="${doneRun}"] a.replay')||{}).href`);
  if (!href) throw new Error('no replay link for ' + doneRun);
  await go(href);
  await waitFor(`!!document.getElementById('axis0')`, 60, 'the sliders');
  await js(`document.getElementById('axis0').focus()`);
  for (let i = 0; i < 40; i++) await key('ArrowRight');
  await waitFor(`document.getElementById('pane0').dataset.ended==='1'`, 120, 'the slider replay to end');
  const readPane = k => js(`(()=>{const p=document.getElementById('pane${k}');return {label:p.querySelector('h2').textContent,
    command:p.querySelector('code.command').textContent,final:p.querySelector('pre.final').textContent.split('\\n'),
    drawn:p.querySelector('pre.drawn').textContent}})()`);
  const slider = await readPane(0);
  // World 3 by a click on its dot in the chart of worlds.csv.
  await js(`document.querySelector('input[name=target][value="1"]').click();document.getElementById('chart-box').open=true`);
  await waitFor(`!!document.querySelector('#chart circle[data-world="3"]')`, 60, 'the chart of worlds');
  await js(`document.querySelector('#chart circle[data-world="3"]').dispatchEvent(new MouseEvent('click',{bubbles:true}))`);
  await waitFor(`document.getElementById('pane1').dataset.ended==='1'`, 120, 'the world replay to end');
  const world = await readPane(1);
  await js(`document.getElementById('chart-box').open=false`);
  await width(1280, 1500); await sleep(400); await shot('serve-replay-1280.png');
  await width(390, 2400); await sleep(400); await shot('serve-replay-390.png');

  // 4. The tune, ended: its answer and files on its page, then its answer's world replayed.
  await width(1280);
  await go(url + 'tune?run=' + encodeURIComponent(tuneRun));
  await waitFor(`document.body.dataset.state==='done'&&!!document.querySelector('#answer .answer')`, 600, 'the tune to end');
  const answer = await js(`document.querySelector('#answer .answer').textContent`);
  const files = await js(`[...document.querySelectorAll('#answer a')].map(a=>a.getAttribute('href').split('/').pop())`);
  for (const f of ['report.html', 'best.yaml']) if (!files.includes(f)) throw new Error(`the ended tune's page links no ${f}: ${files}`);
  const tuneGenerations = await js(generations);
  await go(await js(`document.querySelector('#best a.replay').href`));
  await waitFor(`document.getElementById('pane0').dataset.ended==='1'`, 120, 'the answer\'s replay to end');
  const best = await readPane(0);
  console.log(JSON.stringify({ live: seen, updates, replays: [slider, world, best],
    tune: { seen: tuneSeen, generations: tuneGenerations, answer, files } }));
  finish(failed ? 1 : 0);
})();
