/* Yinsh Lab's game viewer: the index of games and the page of one game,
 * for the site `yinsh view` writes (study/viewer/view_site.c, docs/viewer.md).
 *
 * Plain JavaScript, no framework, nothing fetched: the site opens from
 * disk (file://), where a page may not read other files, so each page
 * carries its own data (a JSON script element) and the board's tables come
 * as a script (board.js). The board is drawn only by filling the templates
 * of YINSH_BOARD, which study/viewer/board_svg.c writes and also draws
 * `yinsh svg` with: the look of the board has one source, in C. The
 * positions, their marks and status lines are computed by the engine when
 * the site is written; this script reads a YPN's board field only to put
 * the pieces on their points. */
(function () {
  'use strict';

  var B = window.YINSH_BOARD;

  /* ---- small helpers ---------------------------------------------------- */

  /* An element with attributes (text: its text, on*: listeners) and
   * children (elements or strings). */
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === undefined || v === null) return;
      if (k === 'text') e.textContent = v;
      else if (k.slice(0, 2) === 'on') e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    });
    (children || []).forEach(function (c) {
      if (c !== null && c !== undefined) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return e;
  }

  function escapeXml(s) {
    return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  }

  function side(c) { return c === 'w' ? 'White' : 'Black'; }

  function ms(us) { return (us / 1000).toFixed(us < 10000 ? 2 : 1); }

  /* ---- the board (templates of board.js) --------------------------------- */

  /* A template with each {key} replaced, in one pass (a value is never
   * read as a template), as board_svg.c's fill does. */
  function fill(tpl, vals) {
    return tpl.replace(/\{(\w+)\}/g, function (whole, key) {
      return Object.prototype.hasOwnProperty.call(vals, key) ? String(vals[key]) : whole;
    });
  }

  function mark(kind, at, to) {
    var p = B.places[at], q = to ? B.places[to] : [0, 0];
    return fill(B.marks[kind], { x: p[0], y: p[1], x2: q[0], y2: q[1] });
  }

  /* Marks as text: "pe5e8 fe6 WW1" (board_svg.h). */
  function marks(text) {
    if (!text) return '';
    return text.split(' ').map(function (t) {
      var places = t.slice(1).match(/[A-Za-z][0-9]+/g) || [];
      return mark(t.charAt(0), places[0], places[1]);
    }).join('');
  }

  /* The pieces of a YPN's board field, in canonical point order: column
   * groups a..k, each from its lowest point up; a number skips that many
   * empty points, a letter (W B w b) is a piece and names its template. */
  function pieces(ypn) {
    var groups = ypn.split(' ')[0].split('/'), out = '';
    for (var c = 0; c < groups.length && c < B.columns.length; c++) {
      var g = groups[c], pts = B.columns[c], at = 0;
      for (var k = 0; k < g.length; k++) {
        var digits = /^[0-9]+/.exec(g.slice(k));
        if (digits) {
          at += parseInt(digits[0], 10);
          k += digits[0].length - 1;
        } else {
          out += mark(g.charAt(k), pts[at]);
          at++;
        }
      }
    }
    return out;
  }

  /* The SVG of a frame [ypn, marks, status code], last: the action that
   * led to it ('' for none). */
  function drawing(frame, last) {
    var texts = fill(B.status, { text: escapeXml(B.statusText[frame[2]]) });
    if (last) texts += fill(B.last, { text: escapeXml(last) });
    return fill(B.frame, {
      open: fill(B.open, { w: '100%', h: '100%' }),
      board: B.board,
      marks: marks(frame[1]),
      pieces: pieces(frame[0]),
      texts: texts
    });
  }

  /* ---- charts --------------------------------------------------------------- */

  var SVGNS = 'http://www.w3.org/2000/svg';

  function svg(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }

  /* A chart of one value per action (ply 1..n): kind 'line' (values in
   * [0, 1], a line per side through its own actions) or 'bars'. get(a)
   * returns the value of action a or null. onpick(ply) when clicked. The
   * returned object's cursor(ply) moves the marker of the position shown. */
  function chart(box, actions, kind, get, fmt, onpick) {
    var W = 720, H = 150, L = 46, R = 10, T = 10, Bm = 22, n = actions.length;
    var root = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, 'class': 'chart', preserveAspectRatio: 'none' });
    var max = 0, vals = actions.map(function (a) { var v = get(a); if (v !== null && v > max) max = v; return v; });
    if (kind === 'line') max = 1;
    if (max <= 0) max = 1;
    var x = function (ply) { return L + (n > 1 ? (ply - 1) * (W - L - R) / (n - 1) : (W - L - R) / 2); };
    var y = function (v) { return T + (1 - v / max) * (H - T - Bm); };
    root.appendChild(svg('rect', { x: L, y: T, width: W - L - R, height: H - T - Bm, 'class': 'plot' }));
    [0, 0.5, 1].forEach(function (f) {
      var gy = y(f * max);
      root.appendChild(svg('line', { x1: L, x2: W - R, y1: gy, y2: gy, 'class': f === 0.5 && kind === 'line' ? 'even' : 'grid' }));
      var t = svg('text', { x: L - 6, y: gy + 4, 'text-anchor': 'end', 'class': 'tick' });
      t.textContent = fmt(f * max);
      root.appendChild(t);
    });
    var tx = svg('text', { x: W - R, y: H - 6, 'text-anchor': 'end', 'class': 'tick' });
    tx.textContent = 'action ' + n;
    root.appendChild(tx);
    var t1 = svg('text', { x: L, y: H - 6, 'class': 'tick' });
    t1.textContent = 'action 1';
    root.appendChild(t1);
    var drawn = 0;
    ['w', 'b'].forEach(function (who) {
      var pts = [];
      actions.forEach(function (a, i) {
        if (a[1] !== who || vals[i] === null) return;
        pts.push([x(i + 1), y(vals[i]), i + 1]);
        if (kind === 'bars') {
          var bw = Math.max(1, (W - L - R) / Math.max(n, 1) * 0.8);
          root.appendChild(svg('rect', { x: x(i + 1) - bw / 2, y: y(vals[i]), width: bw,
            height: H - Bm - y(vals[i]), 'class': 'bar ' + who }));
        }
        drawn++;
      });
      if (kind === 'line' && pts.length) {
        root.appendChild(svg('polyline', { points: pts.map(function (p) { return p[0] + ',' + p[1]; }).join(' '), 'class': 'series ' + who }));
        pts.forEach(function (p) { root.appendChild(svg('circle', { cx: p[0], cy: p[1], r: 2.2, 'class': 'dot ' + who, 'data-ply': p[2] })); });
      }
    });
    var cur = svg('line', { y1: T, y2: H - Bm, 'class': 'cursor' });
    root.appendChild(cur);
    root.addEventListener('click', function (ev) {
      var r = root.getBoundingClientRect();
      var px = (ev.clientX - r.left) * W / r.width;
      var ply = n > 1 ? Math.round((px - L) / ((W - L - R) / (n - 1))) + 1 : 1;
      onpick(Math.max(1, Math.min(n, ply)));
    });
    box.appendChild(root);
    box.setAttribute('data-points', String(drawn));
    return {
      cursor: function (ply) {
        var show = ply >= 1 && ply <= n;
        cur.setAttribute('visibility', show ? 'visible' : 'hidden');
        if (show) { cur.setAttribute('x1', x(ply)); cur.setAttribute('x2', x(ply)); }
      },
      drawn: drawn
    };
  }

  /* ---- the page of a game ----------------------------------------------------- */

  function game(d) {
    var n = d.actions.length, ply = 0;
    document.title = 'Yinsh Lab: ' + d.run + ' #' + d.index;
    var result = d.result === 'draw' ? 'draw' : side(d.result.charAt(0)) + ' wins';

    var board = el('div', { id: 'board', 'class': 'board' });
    var slider = el('input', { id: 'slider', type: 'range', min: '0', max: String(n), value: '0',
      'aria-label': 'position', oninput: function () { go(parseInt(slider.value, 10)); } });
    var counter = el('span', { id: 'counter', 'class': 'counter' });
    var ypnBox = el('code', { id: 'ypn' });
    var details = el('div', { id: 'details', 'class': 'details' });
    var button = function (id, label, title, to) {
      return el('button', { id: id, type: 'button', title: title, text: label, onclick: function () { go(to()); } });
    };

    var rows = [];
    var tbody = el('tbody');
    var addRow = function (k, cells) {
      var tr = el('tr', { 'data-ply': String(k), onclick: function () { go(k); } },
        cells.map(function (c) { return el('td', { text: c }); }));
      rows.push(tr);
      tbody.appendChild(tr);
    };
    addRow(0, ['', '', 'start', '', '', '']);
    d.actions.forEach(function (a, i) {
      addRow(i + 1, [String(i + 1), side(a[1]), a[0], a[6] === null ? '' : (100 * a[6]).toFixed(1) + '%',
        a[5] === null ? '' : a[5] + ' / ' + a[4], ms(a[7])]);
      rows[i + 1].firstChild.nextSibling.className = 'who ' + a[1];
    });
    var table = el('table', { id: 'actions', 'class': 'actions' }, [
      el('thead', {}, [el('tr', {}, ['#', 'who', 'action', 'P(win)', 'visits', 'ms'].map(function (h) {
        return el('th', { text: h });
      }))]), tbody]);

    var link = function (id, text) { return id === undefined ? el('span', { 'class': 'off', text: text }) : el('a', { href: id + '.html', text: text }); };
    document.body.appendChild(el('header', {}, [
      el('a', { href: '../index.html', text: '\u2190 all games' }),
      el('h1', { text: d.run + ' #' + d.index }),
      el('p', { 'class': 'who-plays' }, [
        el('span', { 'class': 'who w', text: 'White' }), ' ' + d.white + '  vs  ',
        el('span', { 'class': 'who b', text: 'Black' }), ' ' + d.black]),
      el('p', { id: 'result', text: d.variant + ' \u00b7 ' + result + ' (' + d.reason + ') \u00b7 ' + n + ' actions \u00b7 ' +
        (d.duration_ms / 1000).toFixed(2) + ' s \u00b7 seed ' + d.seed }),
      el('nav', {}, [link(d.prev, '\u2039 previous game'), ' ', link(d.next, 'next game \u203a')])
    ]));
    document.body.appendChild(el('main', {}, [
      el('section', { 'class': 'left' }, [
        board,
        el('div', { 'class': 'controls' }, [
          button('first', '\u21e4', 'start (Home)', function () { return 0; }),
          button('prev', '\u25c0', 'back (\u2190)', function () { return ply - 1; }),
          slider,
          button('next', '\u25b6', 'forward (\u2192)', function () { return ply + 1; }),
          button('last', '\u21e5', 'end (End)', function () { return n; }),
          counter]),
        el('p', { 'class': 'ypn' }, ['YPN ', ypnBox])]),
      el('section', { 'class': 'right' }, [details, el('div', { 'class': 'list' }, [table])])
    ]));

    var charts = [];
    var boxes = el('section', { 'class': 'charts' });
    document.body.appendChild(boxes);
    var searched = d.actions.some(function (a) { return a[6] !== null; });
    var addChart = function (id, title, kind, get, fmt) {
      var box = el('div', { id: id, 'class': 'chart-box' });
      boxes.appendChild(el('h2', { text: title }));
      boxes.appendChild(box);
      charts.push(chart(box, d.actions, kind, get, fmt, go));
    };
    if (searched) {
      addChart('chart-value', 'Win probability of the side to act (the chosen action\u2019s value)', 'line',
        function (a) { return a[6]; }, function (v) { return Math.round(100 * v) + '%'; });
      addChart('chart-visits', 'Visits of the chosen action', 'bars',
        function (a) { return a[5]; }, function (v) { return String(Math.round(v)); });
    } else {
      boxes.appendChild(el('p', { id: 'no-search', 'class': 'note',
        text: 'No action of this game was searched (random agents or forced actions): no win probability or visits.' }));
    }
    addChart('chart-time', 'Time per action (ms)', 'bars', function (a) { return a[7] / 1000; },
      function (v) { return v.toFixed(v < 10 ? 1 : 0); });
    boxes.appendChild(el('p', { 'class': 'legend' }, [el('span', { 'class': 'key w' }), ' White\u2019s actions  ',
      el('span', { 'class': 'key b' }), ' Black\u2019s actions']));

    function go(k) {
      ply = Math.max(0, Math.min(n, isNaN(k) ? 0 : k));
      var f = d.frames[ply], a = ply > 0 ? d.actions[ply - 1] : null;
      board.innerHTML = drawing(f, a ? a[0] : '');
      board.setAttribute('data-ypn', f[0]);
      board.setAttribute('data-ply', String(ply));
      ypnBox.textContent = f[0];
      slider.value = String(ply);
      counter.textContent = ply + ' / ' + n;
      rows.forEach(function (r, i) { r.className = i === ply ? 'current' : ''; });
      var row = rows[ply];
      if (row.scrollIntoView && row.parentNode) {
        var list = row.parentNode.parentNode.parentNode;
        if (row.offsetTop < list.scrollTop || row.offsetTop > list.scrollTop + list.clientHeight - row.offsetHeight)
          list.scrollTop = row.offsetTop - list.clientHeight / 2;
      }
      details.textContent = '';
      if (a) {
        details.appendChild(el('p', {}, [el('b', { text: ply + '. ' + side(a[1]) + ' ' + a[0] }),
          ' (state ' + a[2] + ', ' + a[3] + ' legal actions)']));
        details.appendChild(el('p', { text: a[6] === null ? 'not searched \u00b7 ' + ms(a[7]) + ' ms' :
          'win probability ' + (100 * a[6]).toFixed(1) + '% \u00b7 visits ' + a[5] + ' of ' + a[4] + ' \u00b7 ' + ms(a[7]) + ' ms' }));
      } else {
        details.appendChild(el('p', { text: 'The start: ' + n + ' actions follow. \u2190 \u2192 step, Home and End jump.' }));
      }
      charts.forEach(function (c) { c.cursor(ply); });
    }

    document.addEventListener('keydown', function (ev) {
      var t = ev.target && ev.target.tagName;
      if (t === 'INPUT' || t === 'SELECT' || t === 'TEXTAREA' || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      var to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: n, PageUp: ply - 10, PageDown: ply + 10 }[ev.key];
      if (to === undefined) return;
      ev.preventDefault();
      go(to);
    });
    go(0);
    document.body.setAttribute('data-ready', '1');
  }

  /* ---- the index ----------------------------------------------------------------- */

  /* Columns of the games table: title, value of a game row (arrays as
   * view_site.c writes them), numeric. */
  var COLUMNS = [
    ['run', function (g, runs) { return runs[g[1]].name; }, false],
    ['game', function (g) { return g[2]; }, true],
    ['variant', function (g) { return g[3]; }, false],
    ['White', function (g) { return g[4]; }, false],
    ['Black', function (g) { return g[5]; }, false],
    ['result', function (g) { return g[6]; }, false],
    ['reason', function (g) { return g[7]; }, false],
    ['length', function (g) { return g[8]; }, true],
    ['time (s)', function (g) { return g[9] / 1000; }, true]
  ];
  var SHOWN_MAX = 1000;

  function index(d) {
    var sortBy = 1, ascending = true;
    var distinct = function (f) {
      var seen = {};
      d.games.forEach(function (g) { seen[f(g)] = true; });
      return Object.keys(seen).sort();
    };
    var select = function (id, label, values) {
      var s = el('select', { id: id, onchange: update }, [el('option', { value: '', text: 'all' })].concat(
        values.map(function (v) { return el('option', { value: v, text: v }); })));
      return el('label', {}, [label + ' ', s]);
    };
    var input = function (id, label, type, placeholder) {
      return el('label', {}, [label + ' ', el('input', { id: id, type: type, placeholder: placeholder, oninput: update })]);
    };

    document.body.appendChild(el('header', {}, [
      el('h1', { text: 'Yinsh Lab: games' }),
      el('p', { text: d.games.length + ' games of ' + d.runs.length + ' run' + (d.runs.length === 1 ? '' : 's') +
        ' from ' + d.db })]));

    /* a run's row, and its command on a row of its own below it */
    var runBody = el('tbody');
    d.runs.forEach(function (r) {
      runBody.appendChild(el('tr', { 'class': 'run' }, [el('td', { text: r.name }), el('td', { text: r.variant }),
        el('td', { text: r.white }), el('td', { text: r.black }), el('td', { text: r.stored + ' / ' + r.games }),
        el('td', { text: r.seed }), el('td', { title: r.started, text: r.started.slice(0, 16).replace('T', ' ') })]));
      runBody.appendChild(el('tr', { 'class': 'command' }, [el('td', { colspan: '7' }, [el('code', { text: r.command })])]));
    });
    document.body.appendChild(el('section', {}, [el('h2', { text: 'Runs' }),
      el('div', { 'class': 'scroll' }, [el('table', { id: 'runs' }, [el('thead', {}, [el('tr', {},
        ['run', 'variant', 'White', 'Black', 'games', 'seed', 'started'].map(function (h) {
          return el('th', { text: h });
        }))]), runBody])])]));

    var count = el('p', { id: 'count', 'class': 'count' });
    var head = el('tr');
    var body = el('tbody');
    COLUMNS.forEach(function (c, i) {
      head.appendChild(el('th', { 'data-col': String(i), 'class': 'sortable', title: 'sort by ' + c[0], text: c[0],
        onclick: function () {
          if (sortBy === i) ascending = !ascending;
          else { sortBy = i; ascending = true; }
          update();
        } }));
    });
    document.body.appendChild(el('section', {}, [el('h2', { text: 'Games' }),
      el('div', { 'class': 'filters' }, [
        select('f-run', 'run', d.runs.map(function (r) { return r.name; })),
        select('f-variant', 'variant', distinct(function (g) { return g[3]; })),
        input('f-agents', 'agents', 'search', 'e.g. mcts:sims=100'),
        select('f-result', 'result', distinct(function (g) { return g[6]; })),
        select('f-reason', 'reason', distinct(function (g) { return g[7]; })),
        input('f-min', 'length from', 'number', ''),
        input('f-max', 'to', 'number', ''),
        el('button', { id: 'f-clear', type: 'button', text: 'clear', onclick: function () {
          Array.prototype.forEach.call(document.querySelectorAll('.filters select, .filters input'), function (e) { e.value = ''; });
          update();
        } })]),
      count,
      el('div', { 'class': 'scroll' }, [el('table', { id: 'games', 'class': 'games' }, [el('thead', {}, [head]), body])])]));

    function value(id) { return document.getElementById(id).value; }

    function update() {
      var run = value('f-run'), variant = value('f-variant'), result = value('f-result'), reason = value('f-reason');
      var agents = value('f-agents').trim().toLowerCase();
      var min = value('f-min') === '' ? -Infinity : Number(value('f-min'));
      var max = value('f-max') === '' ? Infinity : Number(value('f-max'));
      var shown = d.games.filter(function (g) {
        return (!run || d.runs[g[1]].name === run) && (!variant || g[3] === variant) && (!result || g[6] === result) &&
          (!reason || g[7] === reason) && g[8] >= min && g[8] <= max &&
          (!agents || g[4].toLowerCase().indexOf(agents) >= 0 || g[5].toLowerCase().indexOf(agents) >= 0);
      });
      var key = COLUMNS[sortBy][1], numeric = COLUMNS[sortBy][2];
      shown.sort(function (a, b) {
        var x = key(a, d.runs), y = key(b, d.runs);
        var c = numeric ? x - y : String(x).localeCompare(String(y));
        if (c === 0) c = a[0] - b[0];
        return ascending ? c : -c;
      });
      Array.prototype.forEach.call(head.children, function (th, i) {
        th.className = 'sortable' + (i === sortBy ? (ascending ? ' up' : ' down') : '');
      });
      body.textContent = '';
      shown.slice(0, SHOWN_MAX).forEach(function (g) {
        body.appendChild(el('tr', { 'data-id': String(g[0]) }, COLUMNS.map(function (c, i) {
          var v = c[1](g, d.runs);
          if (i === 1) return el('td', {}, [el('a', { href: 'games/' + g[0] + '.html', text: '#' + v })]);
          if (i === 8) v = v.toFixed(2);
          return el('td', { 'class': i === 5 ? 'result ' + v : null, text: String(v) });
        })));
      });
      count.textContent = 'showing ' + Math.min(shown.length, SHOWN_MAX) + ' of ' + shown.length + ' selected games (' +
        d.games.length + ' in all)' + (shown.length > SHOWN_MAX ? '; filter to see the others' : '');
      count.setAttribute('data-selected', String(shown.length));
    }
    update();
    document.body.setAttribute('data-ready', '1');
  }

  window.YinshView = { index: index, game: game, drawing: drawing };
}());
