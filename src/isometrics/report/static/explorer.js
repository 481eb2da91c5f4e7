// Level-curve explorers of the isometrics report: the curves are recomputed in the page
// (closed forms of the weighted power mean) whenever a slider moves. Each model's
// precision-recall curve and best point (from the "explorer-data" block, its curve a reference
// into the shared data that figures.js resolves) are drawn over them. No network access.
(function () {
  "use strict";
  var LEVELS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

  // The weighted power mean W(gamma, phi) of precision p and recall r.
  function mean(gamma, phi, p, r) {
    if (Math.abs(phi) < 1e-12) {           // geometric: (p^gamma r)^(1/(1+gamma))
      return Math.exp((gamma * Math.log(p) + Math.log(r)) / (1 + gamma));
    }
    return Math.pow((gamma * Math.pow(p, phi) + Math.pow(r, phi)) / (1 + gamma), 1 / phi);
  }

  // Every mean of the family is homogeneous (W(tp, tr) = t W(p, r)), so the level curve W = v
  // meets the ray of direction (precision u, recall 1 - u) once, at t = v / W(u, 1 - u). The
  // curve's part inside the unit square is the interval of u where that point stays in it; it
  // contains u = 1/2 (the point (v, v)), and its ends, found by bisection, lie on the square's
  // edges. Returns [recall, precision], or null outside the square.
  function onRay(gamma, phi, v, u) {
    var t = v / mean(gamma, phi, u, 1 - u);
    if (!(t >= 0) || !isFinite(t)) { return null; }
    var p = t * u, r = t * (1 - u);
    return (p <= 1 && r <= 1) ? [r, p] : null;
  }

  function end(gamma, phi, v, outside) {    // the last u inside between 1/2 and `outside`
    if (onRay(gamma, phi, v, outside) !== null) { return outside; }
    var inside = 0.5;
    for (var i = 0; i < 60; i++) {
      var mid = (inside + outside) / 2;
      if (onRay(gamma, phi, v, mid) !== null) { inside = mid; } else { outside = mid; }
    }
    return inside;
  }

  function curves(gamma, phi) {
    var traces = [];
    for (var k = 0; k < LEVELS.length; k++) {
      var v = LEVELS[k], u0 = end(gamma, phi, v, 0), u1 = end(gamma, phi, v, 1), xs = [], ys = [];
      for (var i = 0; i <= 300; i++) {
        var point = onRay(gamma, phi, v, i === 300 ? u1 : u0 + (u1 - u0) * i / 300);
        if (point === null) { continue; }
        if (i === 0 || i === 300) {             // the square's edge exactly, whatever the rounding
          if (point[0] > 1 - 1e-9) { point[0] = 1; }
          if (point[1] > 1 - 1e-9) { point[1] = 1; }
        }
        xs.push(point[0]); ys.push(point[1]);
      }
      traces.push({x: xs, y: ys, mode: "lines", line: {color: "#9db0c8", width: 1},
                   name: String(v), hoverinfo: "name", meta: "level"});
    }
    return traces;
  }

  var overlays = null;

  // Each model's precision-recall curve and best point, drawn over the level curves.
  function models() {
    if (overlays === null) {
      var block = document.getElementById("explorer-data");
      overlays = [];
      if (block && window.isometricsResolve) {
        JSON.parse(block.textContent).models.forEach(function (m) {
          m = window.isometricsResolve(m);
          overlays.push({x: m.recall, y: m.precision, mode: "lines", line: {color: m.color, width: 2, shape: "vh"},
                         name: m.name, hoverinfo: "name", meta: "model"});
          if (m.best) {
            overlays.push({x: [m.best.recall], y: [m.best.precision], mode: "markers",
                           marker: {color: m.color, size: 9}, name: m.name, meta: "best",
                           hovertemplate: "best " + m.best.label + " " + m.best.value.toFixed(4) +
                                          "<extra>" + m.name + "</extra>"});
          }
        });
      }
    }
    return overlays;
  }

  // Fixed ranges and margins that hold the labels: no label can cross the figure's edge, so Plotly's
  // check of each one (ticklabeloverflow, a measurement of every label at every drawing) is skipped.
  function layout(title) {
    return {title: {text: title}, xaxis: {title: {text: "recall"}, range: [0, 1], ticklabeloverflow: "allow"},
            yaxis: {title: {text: "precision"}, range: [0, 1], scaleanchor: "x", ticklabeloverflow: "allow"},
            showlegend: false, margin: {t: 40, r: 10, b: 40, l: 50}, width: 460, height: 460};
  }

  function drawG(div) {
    var beta = parseFloat(document.getElementById(div.id + "-beta").value);
    var rho = parseFloat(document.getElementById(div.id + "-rho").value);
    var title, traces;
    if (rho === 0) {                        // the stipulated (beta P + R) / (1 + beta)
      traces = curves(beta, 1); title = "G(β=" + beta + ", ρ=0): (βP + R)/(1 + β)";
    } else {
      traces = curves(Math.pow(beta, rho), rho + 1); title = "G(β=" + beta + ", ρ=" + rho + ")";
    }
    var end = Math.min(1, beta);            // break-even line R/P = beta
    traces.push({x: [0, end], y: [0, end / beta], mode: "lines", line: {color: "black", width: 3},
                 name: "R/P = β", hoverinfo: "name"});
    document.getElementById(div.id + "-beta-value").textContent = beta;
    document.getElementById(div.id + "-rho-value").textContent = rho;
    Plotly.react(div, traces.concat(models()), layout(title), {displaylogo: false, responsive: true});
  }

  function drawMean(div) {
    var gamma = parseFloat(document.getElementById(div.id + "-gamma").value);
    var kind = div.getAttribute("data-mean");
    var phi = {arithmetic: 1, geometric: 0, harmonic: -1}[kind];
    document.getElementById(div.id + "-gamma-value").textContent = gamma;
    Plotly.react(div, curves(gamma, phi).concat(models()), layout(kind + " mean, γ = " + gamma),
                 {displaylogo: false});
  }

  // Each explorer is drawn when it comes near the window (window.isometricsLazy, figures.js),
  // or at once where that is missing; a slider moved before then draws it.
  window.isometricsExplorers = function () {
    var lazy = window.isometricsLazy;
    var divs = document.querySelectorAll("[data-explorer]");
    for (var i = 0; i < divs.length; i++) {
      (function (div) {
        var draw = div.getAttribute("data-explorer") === "g" ? drawG : drawMean;
        var inputs = document.querySelectorAll("input[data-for='" + div.id + "']");
        for (var j = 0; j < inputs.length; j++) {
          inputs[j].addEventListener("input", function () {
            if (lazy && !lazy.drawn(div)) { lazy.now(div); } else { draw(div); }
          });
        }
        if (lazy) { lazy.add(div, function () { draw(div); }, 460, 460); } else { draw(div); }
      })(divs[i]);
    }
  };
})();
