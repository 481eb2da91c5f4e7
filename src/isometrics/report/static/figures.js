// Figures of the isometrics report. Their data sit in <script type="application/json"> blocks
// (never executed); this script parses them and draws them with Plotly. No network access.
// The models' curves are stored once, in the "report-data" block (thresholds and counts of
// each model's points, thinned to display resolution, and each metric's values); a figure's
// trace refers to a column as {"$col": [model, name], "from": i} and to hover rows as
// {"$rows": [[model, name], ...], "from": i}, and to the layout's Plotly template (stored once)
// as {"$template": i}, replaced here before Plotly sees them.
(function () {
  "use strict";
  var CONFIG = {displaylogo: false, responsive: true};
  var shared = null, templates = [];

  function decode(block) {                   // a base64 little-endian typed array
    var bytes = atob(block.bdata), buffer = new ArrayBuffer(bytes.length), view = new Uint8Array(buffer);
    for (var i = 0; i < bytes.length; i++) { view[i] = bytes.charCodeAt(i); }
    return block.dtype === "f4" ? new Float32Array(buffer) : new Float64Array(buffer);
  }

  // Each model's columns: the stored ones and those derived from the counts, as in the engine:
  // rates over the class totals, precision over the flagged, gains (x - pi) / ((1 - pi) x).
  function columns(model) {
    var thr = decode(model.thr), tp = decode(model.tp), fp = decode(model.fp), P = model.P, N = model.N;
    var pi = P / (P + N), n = tp.length, c = {thr: thr, tp: tp, fp: fp};
    ["flagged", "share", "fpr", "tpr", "precision", "rg", "pg", "lift"].forEach(function (k) {
      c[k] = new Float64Array(n);
    });
    function gain(x) { return (1 - pi / x) / (1 - pi); }
    for (var i = 0; i < n; i++) {
      var flagged = tp[i] + fp[i], precision = flagged > 0 ? tp[i] / flagged : NaN;
      c.flagged[i] = flagged; c.share[i] = flagged / (P + N); c.fpr[i] = fp[i] / N; c.tpr[i] = tp[i] / P;
      c.precision[i] = precision; c.rg[i] = gain(tp[i] / P); c.pg[i] = gain(precision); c.lift[i] = precision / pi;
    }
    for (var spec in model.metrics) {
      if (Object.prototype.hasOwnProperty.call(model.metrics, spec)) { c["metric:" + spec] = decode(model.metrics[spec]); }
    }
    return c;
  }

  function data() {
    if (shared === null) {
      var block = document.getElementById("report-data");
      var parsed = block ? JSON.parse(block.textContent) : {models: []};
      shared = parsed.models.map(columns);
      templates = parsed.templates || [];
    }
    return shared;
  }

  function column(ref) { return data()[ref[0]][ref[1]]; }

  // A copy of value with every reference replaced by plain arrays.
  function resolve(value) {
    if (Array.isArray(value)) { return value.map(resolve); }
    if (value === null || typeof value !== "object") { return value; }
    if (value.$template !== undefined) { data(); return JSON.parse(JSON.stringify(templates[value.$template])); }
    if (value.$col) { return Array.prototype.slice.call(column(value.$col), value.from || 0); }
    if (value.$rows) {
      var cols = value.$rows.map(column), rows = [];
      for (var i = value.from || 0; i < cols[0].length; i++) {
        rows.push(cols.map(function (col) { return col[i]; }));
      }
      return rows;
    }
    var out = {};
    for (var key in value) {
      if (Object.prototype.hasOwnProperty.call(value, key)) { out[key] = resolve(value[key]); }
    }
    return out;
  }
  window.isometricsResolve = resolve;

  function draw(block, spec) {
    spec = spec || JSON.parse(block.textContent);
    var div = document.getElementById(block.getAttribute("data-figure")), layout = resolve(spec.figure.layout);
    // The box keeps the figure's height: when the window is resized, Plotly (responsive) lays the
    // figure out again at its box's size, and a box of no height of its own would collapse it to 0.
    if (layout.height) { div.style.height = layout.height + "px"; }
    Plotly.newPlot(div, resolve(spec.figure.data), layout, CONFIG);
    return {div: div, groups: spec.groups || []};
  }

  // Show one group of traces (one metric's level curves and best points), hide the others.
  function showGroup(figure, chosen) {
    var indices = [], visible = [];
    for (var g = 0; g < figure.groups.length; g++) {
      for (var i = 0; i < figure.groups[g].length; i++) {
        indices.push(figure.groups[g][i]);
        visible.push(g === chosen);
      }
    }
    if (indices.length) { Plotly.restyle(figure.div, {visible: visible}, indices); }
  }

  function wire(figure) {                   // the metric chooser of a figure with groups of traces
    var select = document.querySelector("select[data-groups-of='" + figure.div.id + "']");
    if (select) {
      select.addEventListener("change", function () { showGroup(figure, parseInt(select.value, 10)); });
      if (select.value !== "0" && select.value !== "") { showGroup(figure, parseInt(select.value, 10)); }
    }
  }

  // Draw the figures one per task, in page order, so that the page paints and answers between
  // them (Plotly draws a figure in about 0.1-0.3 s); then call `done`, if given. (The benchmark
  // and multiclass pages; the report draws lazily, below.)
  window.isometricsFigures = function (done) {
    var blocks = document.querySelectorAll("script[type='application/json'][data-figure]"), i = 0;
    function next() {
      if (i >= blocks.length) {
        if (done) { done(); }
        return;
      }
      wire(draw(blocks[i++]));
      later(next);
    }
    later(next);
  };

  function later(step) {  // after the next paint
    requestAnimationFrame(function () { setTimeout(step, 0); });
  }

  // ---- Lazy drawing (the report). A figure or explorer is drawn when it comes within NEAR of
  // the window (an IntersectionObserver), one per task, those in the window first; its box keeps
  // its height meanwhile, so nothing moves when it is drawn. Printing (beforeprint) and the
  // "draw all" button draw at once whatever is not drawn yet. The page marks its progress in
  // the performance timeline: "isometrics-drawn:<id>" per item (and "isometrics-draw:<id>", a
  // measure of its drawing), "isometrics-viewport-drawn"
  // once everything in the first window is drawn, "isometrics-all-drawn" at the end.
  var NEAR = "75% 0px";
  var items = [], queue = [], observer = null, busy = false, seen = false, viewportMarked = false;

  function mark(name) {
    if (window.performance && performance.mark) { performance.mark(name); }
  }

  function inWindow(target) {
    var r = target.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < window.innerHeight;
  }

  function run(item) {                       // draw one item now, unless drawn
    if (item.drawn) { return; }
    item.drawn = true;
    if (observer) { observer.unobserve(item.target); }
    var start = window.performance ? performance.now() : 0;
    item.draw();
    item.target.style.minHeight = item.target.style.minWidth = "";
    mark("isometrics-drawn:" + item.target.id);
    if (window.performance && performance.measure) {   // how long the drawing took
      try { performance.measure("isometrics-draw:" + item.target.id, {start: start, end: performance.now()}); } catch (e) { /* older */ }
    }
    if (items.every(function (it) { return it.drawn; })) { mark("isometrics-all-drawn"); }
    checkViewport();
  }

  function checkViewport() {                 // once: the first window's items all drawn
    if (viewportMarked || !seen) { return; }
    for (var i = 0; i < items.length; i++) {
      if (!items[i].drawn && inWindow(items[i].target)) { return; }
    }
    viewportMarked = true;
    mark("isometrics-viewport-drawn");
  }

  function pump() {                          // the queued items, one per task, those in the window first
    if (busy) { return; }
    busy = true;
    later(function step() {
      queue = queue.filter(function (it) { return !it.drawn; });
      if (!queue.length) { busy = false; return; }
      var k = 0;
      for (var i = 0; i < queue.length; i++) { if (inWindow(queue[i].target)) { k = i; break; } }
      run(queue.splice(k, 1)[0]);
      later(step);
    });
  }

  function itemOf(target) {
    for (var i = 0; i < items.length; i++) { if (items[i].target === target) { return items[i]; } }
    return null;
  }

  window.isometricsLazy = {
    // Draw `draw()` into `target` when it comes near the window; its box keeps `height` (and
    // `width`, if given; px) meanwhile.
    add: function (target, draw, height, width) {
      var item = {target: target, draw: draw, drawn: false};
      items.push(item);
      if (height) { target.style.minHeight = height + "px"; }
      if (width) { target.style.minWidth = width + "px"; }
      if (observer) { observer.observe(target); } else { queue.push(item); pump(); }
    },
    now: function (target) { var item = itemOf(target); if (item) { run(item); } },
    drawn: function (target) { var item = itemOf(target); return item === null || item.drawn; },
    pending: function () { return items.filter(function (it) { return !it.drawn; }).length; },
    drawAll: function () { items.forEach(run); },
    // Once every item is added: queue those in the window now (laid out, no need to wait for the
    // observer's first report), so the first window is known drawn as soon as they are.
    ready: function () {
      items.forEach(function (it) { if (!it.drawn && inWindow(it.target) && queue.indexOf(it) < 0) { queue.push(it); } });
      seen = true;
      checkViewport();
      pump();
    }
  };

  if (window.IntersectionObserver) {
    observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        var item = itemOf(entry.target);
        if (entry.isIntersecting && item && !item.drawn && queue.indexOf(item) < 0) { queue.push(item); }
      });
      seen = true;
      checkViewport();
      pump();
    }, {rootMargin: NEAR});
  } else {
    seen = true;
  }
  window.addEventListener("beforeprint", function () { window.isometricsLazy.drawAll(); });

  // The report's figures, each drawn when near the window.
  window.isometricsLazyFigures = function () {
    var blocks = document.querySelectorAll("script[type='application/json'][data-figure]");
    Array.prototype.forEach.call(blocks, function (block) {
      var spec = JSON.parse(block.textContent);
      var div = document.getElementById(block.getAttribute("data-figure"));
      window.isometricsLazy.add(div, function () { wire(draw(block, spec)); }, spec.figure.layout.height || 450);
    });
    var button = document.getElementById("draw-all");
    if (button) { button.addEventListener("click", function () { window.isometricsLazy.drawAll(); }); }
  };
})();
