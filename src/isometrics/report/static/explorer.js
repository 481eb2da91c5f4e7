// Level-curve explorers of the isometrics report: the curves are recomputed in the page
// (closed forms of the weighted power mean) whenever a slider moves. No network access.
(function () {
  "use strict";
  var LEVELS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

  // Precision on the level curve W(gamma, phi) = v at recall r (NaN if outside [0, 1]).
  function precisionOnLevel(gamma, phi, v, r) {
    var p;
    if (Math.abs(phi) < 1e-12) {           // geometric: P^gamma R = v^(1+gamma)
      p = Math.pow(Math.pow(v, 1 + gamma) / r, 1 / gamma);
    } else {
      var inner = ((1 + gamma) * Math.pow(v, phi) - Math.pow(r, phi)) / gamma;
      p = inner > 0 ? Math.pow(inner, 1 / phi) : NaN;
    }
    return (p >= 0 && p <= 1) ? p : NaN;
  }

  function curves(gamma, phi) {
    var traces = [];
    for (var k = 0; k < LEVELS.length; k++) {
      var xs = [], ys = [];
      for (var i = 1; i <= 300; i++) {
        var r = i / 300, p = precisionOnLevel(gamma, phi, LEVELS[k], r);
        if (!isNaN(p)) { xs.push(r); ys.push(p); }
      }
      traces.push({x: xs, y: ys, mode: "lines", line: {color: "#1f77b4", width: 1},
                   name: String(LEVELS[k]), hoverinfo: "name"});
    }
    return traces;
  }

  function layout(title) {
    return {title: {text: title}, xaxis: {title: {text: "recall"}, range: [0, 1]},
            yaxis: {title: {text: "precision"}, range: [0, 1], scaleanchor: "x"},
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
    Plotly.react(div, traces, layout(title), {displaylogo: false, responsive: true});
  }

  function drawMean(div) {
    var gamma = parseFloat(document.getElementById(div.id + "-gamma").value);
    var kind = div.getAttribute("data-mean");
    var phi = {arithmetic: 1, geometric: 0, harmonic: -1}[kind];
    document.getElementById(div.id + "-gamma-value").textContent = gamma;
    Plotly.react(div, curves(gamma, phi), layout(kind + " mean, γ = " + gamma), {displaylogo: false});
  }

  window.isometricsExplorers = function () {
    var divs = document.querySelectorAll("[data-explorer]");
    for (var i = 0; i < divs.length; i++) {
      (function (div) {
        var draw = div.getAttribute("data-explorer") === "g" ? drawG : drawMean;
        var inputs = document.querySelectorAll("input[data-for='" + div.id + "']");
        for (var j = 0; j < inputs.length; j++) {
          inputs[j].addEventListener("input", function () { draw(div); });
        }
        draw(div);
      })(divs[i]);
    }
  };
})();
