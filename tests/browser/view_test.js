/* The viewer in a real browser: headless Chromium (Debian's, driven by
 * playwright-core) opens the site `yinsh view` wrote from disk and uses it
 * as a person would. What the pages show is checked against sources they
 * do not share: the database (sqlite3) for the games and actions, `yinsh
 * apply` for every position looked at, `yinsh svg` for the drawing.
 *
 *   node view_test.js SITE DB YINSH SHOTS
 *
 * Fails (exit 1) on the first check that does not hold, on any console
 * error, uncaught exception or failed request, and on any request that
 * leaves file:// (the site must need no network). Run by run.sh. */
'use strict';

const { chromium } = require('playwright-core');
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const [site, db, yinsh, shots] = process.argv.slice(2);
const START = { standard: '4/7/8/9/10/9/10/9/8/7/4 w P standard', blitz: '4/7/8/9/10/9/10/9/8/7/4 w P blitz' };
let checks = 0;

function check(ok, what) {
  if (!ok) throw new Error('check failed: ' + what);
  checks++;
}

function equal(got, want, what) {
  check(JSON.stringify(got) === JSON.stringify(want), what + ': got ' + JSON.stringify(got) + ', want ' + JSON.stringify(want));
}

function sql(query) {
  return execFileSync('sqlite3', ['-readonly', db, query], { encoding: 'utf8' }).trim();
}

function run(args) {
  return execFileSync(yinsh, args, { encoding: 'utf8' });
}

/* The YPN after the first k actions, by the engine. */
function applied(start, actions, k) {
  return run(['apply', start].concat(actions.slice(0, k))).trim();
}

async function main() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'yinsh-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 1000 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const problems = [];
  context.on('request', (r) => { if (!r.url().startsWith('file://')) problems.push('request off disk: ' + r.url()); });
  context.on('requestfailed', (r) => problems.push('request failed: ' + r.url() + ' ' + (r.failure() || {}).errorText));
  const page = context.pages()[0] || await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push('console ' + m.type() + ': ' + m.text()); });
  page.on('pageerror', (e) => problems.push('uncaught: ' + e.message));
  try {
    await test(page);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  check(problems.length === 0, 'no console error, exception or network request:\n  ' + problems.join('\n  '));
  console.log(checks + ' passed, 0 failed');
}

async function ready(page) {
  await page.waitForSelector('body[data-ready="1"]', { timeout: 10000 });
}

async function rowCount(page) {
  return page.$$eval('#games tbody tr', (rs) => rs.length);
}

async function shown(page) {
  return page.$eval('#board', (b) => ({ ply: Number(b.dataset.ply), ypn: b.dataset.ypn }));
}

/* The page's board against `yinsh svg` of the same position and last
 * action: element by element, every attribute and text (the root's size
 * aside: the page sizes its board by CSS). */
async function sameDrawing(page, ypn, last, what) {
  const args = ['svg', ypn].concat(last ? ['--last', last] : []);
  const doc = run(args);
  const diff = await page.evaluate((text) => {
    const theirs = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
    const ours = document.querySelector('#board svg');
    if (theirs.tagName !== 'svg') return 'yinsh svg is not an SVG document';
    const a = [ours].concat(Array.from(ours.querySelectorAll('*')));
    const b = [theirs].concat(Array.from(theirs.querySelectorAll('*')));
    if (a.length !== b.length) return 'elements: page ' + a.length + ', yinsh svg ' + b.length;
    for (let i = 0; i < a.length; i++) {
      const x = a[i], y = b[i];
      if (x.localName !== y.localName) return 'element ' + i + ': ' + x.localName + ' vs ' + y.localName;
      const names = new Set(Array.from(x.attributes).map((t) => t.name).concat(Array.from(y.attributes).map((t) => t.name)));
      for (const n of names) {
        if (i === 0 && (n === 'width' || n === 'height')) continue;
        if (x.getAttribute(n) !== y.getAttribute(n))
          return 'element ' + i + ' <' + x.localName + '> ' + n + ': ' + x.getAttribute(n) + ' vs ' + y.getAttribute(n);
      }
      if (!x.children.length && x.textContent !== y.textContent)
        return 'element ' + i + ' text: ' + x.textContent + ' vs ' + y.textContent;
    }
    return '';
  }, doc);
  check(diff === '', what + ': the page draws as `yinsh ' + args.join(' ') + '`: ' + diff);
}

async function test(page) {
  /* ---- the index ---- */
  const total = Number(sql('SELECT count(*) FROM game'));
  await page.goto('file://' + path.resolve(site, 'index.html'));
  await ready(page);
  equal(await rowCount(page), Math.min(total, 1000), 'index rows');
  equal(await page.$$eval('#runs tbody tr.run', (rs) => rs.length), Number(sql('SELECT count(*) FROM run')), 'runs listed');
  await page.selectOption('#f-variant', 'blitz');
  equal(await rowCount(page), Number(sql("SELECT count(*) FROM game WHERE variant = 'blitz'")), 'rows of blitz');
  await page.selectOption('#f-result', 'white');
  equal(await rowCount(page), Number(sql("SELECT count(*) FROM game WHERE variant = 'blitz' AND result = 'white'")),
    'rows of blitz won by White');
  await page.click('#f-clear');
  await page.fill('#f-agents', 'mcts');
  equal(await rowCount(page), Number(sql("SELECT count(*) FROM game WHERE white LIKE '%mcts%' OR black LIKE '%mcts%'")),
    'rows with an MCTS agent');
  await page.fill('#f-min', '60');
  equal(await rowCount(page),
    Number(sql("SELECT count(*) FROM game WHERE (white LIKE '%mcts%' OR black LIKE '%mcts%') AND actions >= 60")),
    'rows with an MCTS agent and 60 actions or more');
  await page.click('#f-clear');
  await page.selectOption('#f-reason', 'three-rings');
  equal(await rowCount(page), Number(sql("SELECT count(*) FROM game WHERE reason = 'three-rings'")), 'rows by reason');
  await page.click('#f-clear');
  const lengths = async () => page.$$eval('#games tbody tr td:nth-child(8)', (tds) => tds.map((t) => Number(t.textContent)));
  await page.click('#games th[data-col="7"]');
  const up = await lengths();
  equal(up, up.slice().sort((a, b) => a - b), 'sorted by length, ascending');
  await page.click('#games th[data-col="7"]');
  const down = await lengths();
  equal(down, down.slice().sort((a, b) => b - a), 'sorted by length, descending');
  await page.screenshot({ path: path.join(shots, 'index.png') });

  /* ---- a searched standard game with a row removed, reached by its link ---- */
  const id = sql("SELECT game.id FROM game WHERE variant = 'standard' AND white LIKE 'mcts%' AND EXISTS " +
    "(SELECT 1 FROM action WHERE action.game_id = game.id AND action LIKE 'x%-%') ORDER BY actions DESC, id LIMIT 1");
  check(id !== '', 'the database has a searched standard game with a row removal');
  await page.fill('#f-agents', 'mcts');
  await Promise.all([page.waitForNavigation(), page.click('#games a[href="games/' + id + '.html"]')]);
  await ready(page);
  await gamePage(page, id, 'standard', true);

  /* ---- a game of random agents in blitz, by the next/previous links ---- */
  const blitz = sql("SELECT id FROM game WHERE variant = 'blitz' AND white = 'random' ORDER BY id LIMIT 1");
  check(blitz !== '', 'the database has a random blitz game');
  await page.goto('file://' + path.resolve(site, 'games', blitz + '.html'));
  await ready(page);
  await gamePage(page, blitz, 'blitz', false);
}

async function gamePage(page, id, variant, searched) {
  const start = START[variant];
  const actions = sql('SELECT action FROM action WHERE game_id = ' + id + ' ORDER BY ply').split('\n');
  const n = actions.length;
  const where = 'game ' + id;
  equal(await shown(page), { ply: 0, ypn: start }, where + ': the start');
  equal(await page.$$eval('#actions tbody tr td:nth-child(3)', (t) => t.slice(1).map((x) => x.textContent)), actions,
    where + ': the action list is the stored actions');

  /* step with the button, then the arrow keys to the end */
  const steps = Math.min(15, n);
  for (let i = 0; i < steps; i++) await page.click('#next');
  equal(await shown(page), { ply: steps, ypn: applied(start, actions, steps) }, where + ': after ' + steps + ' clicks');
  for (let k = steps; k < n; k++) {
    await page.keyboard.press('ArrowRight');
    const s = await shown(page);
    check(s.ply === k + 1, where + ': ArrowRight to ' + (k + 1));
    /* every position of the game against the engine, in one call per ten */
    if ((k + 1) % 10 === 0 || k + 1 === n) equal(s.ypn, applied(start, actions, k + 1), where + ': position ' + (k + 1));
  }
  const status = await page.$eval('#board .status', (t) => t.textContent);
  const result = sql('SELECT result FROM game WHERE id = ' + id);
  check(status.startsWith(result === 'draw' ? 'Draw' : result === 'white' ? 'White wins' : 'Black wins'),
    where + ': the last position says the result (' + status + ')');
  await page.keyboard.press('ArrowRight');
  equal((await shown(page)).ply, n, where + ': no step past the end');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
  equal(await shown(page), { ply: n - 3, ypn: applied(start, actions, n - 3) }, where + ': three steps back');
  await page.keyboard.press('Home');
  equal(await shown(page), { ply: 0, ypn: start }, where + ': Home');
  await page.keyboard.press('End');
  equal((await shown(page)).ply, n, where + ': End');

  /* the slider and the list */
  const half = Math.floor(n / 2);
  await page.$eval('#slider', (s, v) => { s.value = String(v); s.dispatchEvent(new Event('input', { bubbles: true })); }, half);
  equal(await shown(page), { ply: half, ypn: applied(start, actions, half) }, where + ': the slider at ' + half);
  await page.click('#actions tbody tr[data-ply="11"]');
  equal(await shown(page), { ply: 11, ypn: applied(start, actions, 11) }, where + ': the list at action 11');
  await page.click('#prev');
  equal((await shown(page)).ply, 10, where + ': back button');
  await page.click('#first');
  equal((await shown(page)).ply, 0, where + ': first button');
  await page.click('#last');
  equal((await shown(page)).ply, n, where + ': last button');

  /* the drawing is `yinsh svg`'s: at the start, and after each kind of action */
  await page.keyboard.press('Home');
  await sameDrawing(page, start, '', where + ' start');
  const kinds = [
    ['a placement', (a) => /^[a-k][0-9]+$/.test(a)],
    ['a move that flips', (a, k) => /^[a-k][0-9]+-/.test(a) && k > 10],
    ['a row removal', (a) => /^x.*-/.test(a)],
    ['a ring removal', (a) => /^x[a-k][0-9]+$/.test(a)],
  ];
  let flipShot = 0;
  for (const [what, is] of kinds) {
    let k = actions.findIndex((a, i) => is(a, i + 1));
    if (what === 'a move that flips') {
      /* the first move whose drawing marks a flipped marker */
      for (k = 10; k < n; k++) {
        if (!/-/.test(actions[k]) || actions[k].startsWith('x')) continue;
        await page.click('#actions tbody tr[data-ply="' + (k + 1) + '"]');
        if (await page.$('#board .flip')) break;
      }
      if (k === n) continue;
      flipShot = k + 1;
    }
    if (k < 0) continue;
    await page.click('#actions tbody tr[data-ply="' + (k + 1) + '"]');
    const s = await shown(page);
    await sameDrawing(page, s.ypn, actions[k], where + ' after ' + what + ' (' + actions[k] + ')');
  }
  const pieces = await page.$$eval('#board .pieces > *', (e) => e.length);
  check(pieces > 0, where + ': pieces drawn');
  equal(await page.$$eval('#board .board .point', (e) => e.length), 85, where + ': 85 points');

  /* the charts */
  if (searched) {
    const want = Number(sql('SELECT count(*) FROM action WHERE game_id = ' + id + ' AND value IS NOT NULL'));
    equal(Number(await page.$eval('#chart-value', (b) => b.dataset.points)), want, where + ': win probability points');
    equal(await page.$$eval('#chart-value circle.dot', (c) => c.length), want, where + ': dots of the line chart');
    /* a click on the chart's point of a searched action shows the position it made */
    const dots = await page.$$('#chart-value circle.dot');
    const dot = dots[Math.floor(dots.length / 2)];
    const target = Number(await dot.getAttribute('data-ply'));
    const bb = await dot.boundingBox();
    await page.mouse.click(bb.x + bb.width / 2, bb.y + bb.height / 2);
    equal(await shown(page), { ply: target, ypn: applied(start, actions, target) }, where + ': a click on the chart at ' + target);
  } else {
    check(await page.$('#no-search') !== null, where + ': says that nothing was searched');
  }
  equal(Number(await page.$eval('#chart-time', (b) => b.dataset.points)), n, where + ': a time for every action');

  if (searched) {
    await page.click('#actions tbody tr[data-ply="' + (flipShot || half) + '"]');
    await page.screenshot({ path: path.join(shots, 'game.png'), fullPage: true });
  }
  /* the next game's link goes there */
  const next = await page.$('header nav a[href$=".html"]:last-child');
  if (next) {
    const href = await next.getAttribute('href');
    await Promise.all([page.waitForNavigation(), next.click()]);
    await ready(page);
    check(page.url().endsWith('/games/' + href), where + ': the link to ' + href);
    await page.goBack();
    await ready(page);
  }
}

main().catch((e) => {
  console.error(e.stack || String(e));
  console.log(checks + ' passed, 1 failed');
  process.exit(1);
});
