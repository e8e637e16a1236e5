/* The measurement behind the viewer's design (docs/viewer.md): the size
 * of a site `yinsh view` wrote, against what its game pages would weigh
 * if the C side wrote every position as SVG instead of data.
 *
 *   node scripts/view_size.js SITE
 *
 * The SVG of a position is the text the page itself draws (YinshView.
 * drawing, from board.js's templates), which the browser test checks
 * element by element against `yinsh svg`: so the frames counted here are
 * the frames C would write. Two ways of writing them are counted: every
 * frame whole, and the board layer once per page with only each frame's
 * marks, pieces and texts. */
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const site = process.argv[2];
if (!site) {
  console.error('usage: node scripts/view_size.js SITE');
  process.exit(2);
}
const sandbox = { window: {} };
vm.createContext(sandbox);
vm.runInContext(fs.readFileSync(path.join(site, 'board.js'), 'utf8') + '\nwindow.YINSH_BOARD = YINSH_BOARD;', sandbox);
vm.runInContext(fs.readFileSync(path.join(site, 'viewer.js'), 'utf8'), sandbox);
const B = sandbox.window.YINSH_BOARD;
const draw = sandbox.window.YinshView.drawing;

const size = (f) => fs.statSync(path.join(site, f)).size;
const shared = ['index.html', 'board.js', 'viewer.js', 'viewer.css'].reduce((s, f) => s + size(f), 0);
let games = 0, frames = 0, pages = 0, dataBytes = 0, whole = 0, layered = 0, largest = 0;
const boardLayer = B.board.length;
for (const f of fs.readdirSync(path.join(site, 'games'))) {
  const html = fs.readFileSync(path.join(site, 'games', f), 'utf8');
  const json = /<script id="data" type="application\/json">([\s\S]*?)<\/script>/.exec(html)[1];
  const d = JSON.parse(json);
  games++;
  pages += html.length;
  largest = Math.max(largest, html.length);
  const data = JSON.stringify(d.frames).length;
  dataBytes += data;
  let w = 0, l = boardLayer;
  d.frames.forEach((fr, i) => {
    const svg = draw(fr, i ? d.actions[i - 1][0] : '');
    w += svg.length;
    l += svg.length - boardLayer;
  });
  frames += d.frames.length;
  /* the page as it is, with its frame data replaced by the SVG frames */
  whole += html.length - data + w;
  layered += html.length - data + l;
}
const mb = (b) => (b / 1e6).toFixed(1) + ' MB';
console.log(`games ${games}, positions ${frames}`);
console.log(`as written (data, the page draws): ${mb(shared + pages)}; game pages ${mb(pages)}, ` +
  `mean ${(pages / games / 1e3).toFixed(1)} kB, largest ${(largest / 1e3).toFixed(1)} kB; frame data ${mb(dataBytes)}`);
console.log(`C writes SVG frames, each whole: ${mb(shared + whole)} (mean page ${(whole / games / 1e3).toFixed(0)} kB)`);
console.log(`C writes SVG frames, the board once per page: ${mb(shared + layered)} (mean page ${(layered / games / 1e3).toFixed(0)} kB)`);
