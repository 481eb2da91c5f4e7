/* The interactive elicitation page: the question engine of isometrics.Elicitation, ported from
   docs/elicitation.md (sections 1-9), and the page that asks its questions.

   Every number the page shows is computed here, in the browser, from the settings and the
   decision curve embedded in the page. tests/presentation/test_elicitation_page.py checks
   that, on the same answers, this script asks the same next question as the Python engine
   and reaches the same estimate to 1e-9. User text reaches the page only through
   textContent (never markup). The read-only state for tests is window.__elicitationState
   and the body's data-state attribute. */
(function () {
  "use strict";

  // ------------------------------------------------------------------ 1. constants
  var TIE = 1e-12;
  var L = Math.log(20);
  var N_LOCAL = 2001, N_LOG_BETA = 161, N_RHO = 121, RHO_MIN = -8, RHO_MAX = 4;
  var LOCAL_WIDTH = 2 * Math.log(1.02);
  var LEVELS = [0.1, 0.3, 0.5, 0.7, 0.9];
  var N_CURVE_CANDIDATES = 12, PRUNE = 1e-15, CREDIBLE_MASS = 0.95, MIN_PAIRWISE = 1;
  var DEFAULTS = { rho_sign: "negative", local_budget: 12, pairwise_budget: 25, tolerance: 0.005,
                   local_lambda: 20.0, pairwise_lambda: 50.0 };

  // ------------------------------------------------------------------ 2-3. grids, G, likelihoods
  function grid(low, high, n) {
    var out = new Float64Array(n);
    for (var k = 0; k < n; k++) out[k] = (low * (n - 1 - k) + high * k) / (n - 1);
    return out;
  }

  /* log G(beta, rho) at (P, R) for one hypothesis (section 3). */
  function logG(lb, rho, lp, lr, p, r) {
    if (rho === 0) {
      var beta = Math.exp(lb);
      return Math.log((beta * p + r) / (1 + beta));
    }
    var x = rho * lb;
    var w = 1 / (1 + Math.exp(-x)), wc = 1 / (1 + Math.exp(x));
    var e = rho + 1;
    if (e === 0) return w * lp + wc * lr;
    return Math.log1p(w * Math.expm1(e * lp) + wc * Math.expm1(e * lr)) / e;
  }

  function gAt(lb, rho, p, r) { return Math.exp(logG(lb, rho, Math.log(p), Math.log(r), p, r)); }

  function logsig(z) { return -(Math.max(-z, 0) + Math.log1p(Math.exp(-Math.abs(z)))); }

  function hardLikelihood(m) { return m > TIE ? 1 : (m < -TIE ? 0 : 0.5); }

  function logLikelihood(m, lam) {
    if (lam === Infinity) return Math.log(hardLikelihood(m));
    return logsig(lam * m);
  }

  function normalise(lw) {
    var n = lw.length, top = -Infinity, k;
    for (k = 0; k < n; k++) if (lw[k] > top) top = lw[k];
    var w = new Float64Array(n), s = 0;
    for (k = 0; k < n; k++) { w[k] = Math.exp(lw[k] - top); s += w[k]; }
    for (k = 0; k < n; k++) w[k] /= s;
    return w;
  }

  function binaryEntropy(p) {
    if (p <= 0 || p >= 1) return 0;
    return -(p * Math.log(p) + (1 - p) * Math.log1p(-p));
  }

  function firstBest(values) {
    var top = -Infinity, k;
    for (k = 0; k < values.length; k++) if (values[k] > top) top = values[k];
    for (k = 0; k < values.length; k++) if (values[k] >= top - TIE) return k;
    return 0;
  }

  // ------------------------------------------------------------------ 4. candidates
  function spread(n, m) {
    var c = Math.min(n, m), seen = {}, out = [];
    for (var k = 0; k < c; k++) {
      var idx = Math.floor((k * (n - 1) + Math.floor((c - 1) / 2)) / Math.max(c - 1, 1));
      if (!seen[idx]) { seen[idx] = true; out.push(idx); }
    }
    return out.sort(function (a, b) { return a - b; });
  }

  // ------------------------------------------------------------------ 5. local questions
  function localPoint(ratio) {
    var scale = Math.max(1, ratio);
    return [0.8 / scale, 0.8 * ratio / scale];
  }

  function localMargin(lb, rho, ratio, answer) {
    var t = rho === 0 ? -lb : -Math.sign(rho) * (lb - Math.log(ratio));
    return answer === "recall" ? t : -t;
  }

  function LocalBisection(rhoSign, lam) {
    this.rhoSign = rhoSign;
    this.lam = lam;
    this.x = grid(-L, L, N_LOCAL);
    this.lw = new Float64Array(N_LOCAL);
    this.bounds = [];
    this.n = 0;
  }
  LocalBisection.prototype.quantile = function (q) {
    var w = normalise(this.lw), c = 0;
    for (var k = 0; k < w.length; k++) { c += w[k]; if (c >= q - TIE) return this.x[k]; }
    return this.x[w.length - 1];
  };
  LocalBisection.prototype.converged = function () {
    if (this.rhoSign === "zero") return this.n >= 1;
    return this.quantile(0.975) - this.quantile(0.025) <= LOCAL_WIDTH;
  };
  LocalBisection.prototype.nextQuestion = function () {
    var ratio = this.rhoSign === "zero" ? 1 : Math.exp(this.quantile(0.5));
    var pr = localPoint(ratio);
    return { kind: "local", precision: pr[0], recall: pr[1] };
  };
  LocalBisection.prototype.update = function (q, answer, step) {
    var sign = { negative: -1, positive: 1, zero: 0 }[this.rhoSign];
    var ratio = q.recall / q.precision, k;
    this.n += 1;
    var lower, logRatio;
    if (this.rhoSign === "zero") { lower = answer === "precision"; logRatio = 0; }
    else { lower = (answer === "recall") === (this.rhoSign === "negative"); logRatio = Math.log(ratio); }
    var gap = this.lam === Infinity ? 0 : 2 / this.lam, clash = [];
    for (k = 0; k < this.bounds.length; k++) {
      var b = this.bounds[k];
      if (b[2] !== lower && ((lower && logRatio >= b[1] + gap) || (!lower && logRatio <= b[1] - gap))) clash.push(b[0]);
    }
    this.bounds.push([step, logRatio, lower]);
    var next = new Float64Array(N_LOCAL), finite = false;
    for (k = 0; k < N_LOCAL; k++) {
      next[k] = this.lw[k] + logLikelihood(localMargin(this.x[k], sign, ratio, answer), this.lam);
      if (isFinite(next[k])) finite = true;
    }
    if (!finite) { if (!clash.length) for (k = 0; k < this.bounds.length - 1; k++) clash.push(this.bounds[k][0]); }
    else this.lw = next;
    if (!clash.length) return null;
    return { step: step, earlier: clash, message: "answer " + (step + 1) + " (" + answer + " at R/P = " +
             ratio.toPrecision(4) + ") contradicts answer(s) " + clash.map(function (s) { return s + 1; }).join(", ") +
             "; the answers near the break-even point are the hardest: ask again or accept the noise model's weighing." };
  };

  // ------------------------------------------------------------------ 6-8. the joint posterior
  function JointPosterior(curveP, curveR, lam, localLam) {
    var nh = N_LOG_BETA * N_RHO, h, j, k;
    var lbg = grid(-L, L, N_LOG_BETA), rg = grid(RHO_MIN, RHO_MAX, N_RHO);
    this.nh = nh;
    this.lb = new Float64Array(nh);
    this.rho = new Float64Array(nh);
    for (h = 0; h < nh; h++) { this.lb[h] = lbg[Math.floor(h / N_RHO)]; this.rho[h] = rg[h % N_RHO]; }
    this.lam = lam;
    this.localLam = localLam;
    this.lw = new Float64Array(nh);
    this.feasible = new Uint8Array(nh).fill(1);
    var nc = curveP.length;
    this.nc = nc;
    this.curveG = this.gMatrix(curveP, curveR);  // hypothesis-major: h * nc + j
    this.best = new Float64Array(nh);
    this.choice = new Int32Array(nh);
    for (h = 0; h < nh; h++) {
      var top = -Infinity;
      for (j = 0; j < nc; j++) if (this.curveG[h * nc + j] > top) top = this.curveG[h * nc + j];
      this.best[h] = top;
      for (j = 0; j < nc; j++) if (this.curveG[h * nc + j] >= top - TIE) { this.choice[h] = j; break; }
    }
    // candidates (section 7): the synthetic grid, then the curve's spread points
    var cp = [], cr = [];
    for (var a = 0; a < LEVELS.length; a++) for (var b = 0; b < LEVELS.length; b++) { cp.push(LEVELS[a]); cr.push(LEVELS[b]); }
    if (nc) spread(nc, N_CURVE_CANDIDATES).forEach(function (i) { cp.push(curveP[i]); cr.push(curveR[i]); });
    this.candP = cp; this.candR = cr;
    this.pairI = []; this.pairJ = [];
    for (var i = 0; i < cp.length; i++) for (j = i + 1; j < cp.length; j++)
      if ((cp[i] - cp[j]) * (cr[i] - cr[j]) < 0) { this.pairI.push(i); this.pairJ.push(j); }
    var np = this.pairI.length, ncand = cp.length, g = this.gMatrix(cp, cr);
    this.S = new Float64Array(np * nh);   // pair-major: k * nh + h
    this.Hb = new Float64Array(np * nh);
    for (k = 0; k < np; k++) {
      var pi = this.pairI[k], pj = this.pairJ[k], off = k * nh;
      for (h = 0; h < nh; h++) {
        var m = g[h * ncand + pi] - g[h * ncand + pj];
        if (lam === Infinity) {
          var s = hardLikelihood(m);
          this.S[off + h] = s;
          this.Hb[off + h] = s === 0.5 ? Math.log(2) : 0;
        } else {
          var z = lam * m, ls = logsig(z), sv = Math.exp(ls);
          this.S[off + h] = sv;
          this.Hb[off + h] = (1 - sv) * z - ls;
        }
      }
    }
  }
  JointPosterior.prototype.gMatrix = function (ps, rs) {
    var n = ps.length, out = new Float64Array(this.nh * n);
    for (var j = 0; j < n; j++) {
      var p = ps[j], r = rs[j], lp = Math.log(p), lr = Math.log(r);
      for (var h = 0; h < this.nh; h++) out[h * n + j] = Math.exp(logG(this.lb[h], this.rho[h], lp, lr, p, r));
    }
    return out;
  };
  JointPosterior.prototype.weights = function () { return normalise(this.lw); };
  JointPosterior.prototype.apply = function (margin, lam) {
    var slack = lam === Infinity ? TIE : 2 / lam, h, any = false;
    var inside = new Uint8Array(this.nh);
    for (h = 0; h < this.nh; h++) { inside[h] = this.feasible[h] && margin[h] >= -slack ? 1 : 0; if (inside[h]) any = true; }
    if (any) this.feasible = inside;
    if (any || lam !== Infinity) for (h = 0; h < this.nh; h++) this.lw[h] += logLikelihood(margin[h], lam);
    return any;
  };
  JointPosterior.prototype.applyLocal = function (q, answer) {
    var ratio = q.recall / q.precision, m = new Float64Array(this.nh);
    for (var h = 0; h < this.nh; h++) m[h] = localMargin(this.lb[h], this.rho[h], ratio, answer);
    return this.apply(m, this.localLam);
  };
  JointPosterior.prototype.applyPairwise = function (q, answer) {
    var m = new Float64Array(this.nh);
    for (var h = 0; h < this.nh; h++) {
      var ga = gAt(this.lb[h], this.rho[h], q.a[0], q.a[1]), gb = gAt(this.lb[h], this.rho[h], q.b[0], q.b[1]);
      m[h] = answer === "a" ? ga - gb : gb - ga;
    }
    return this.apply(m, this.lam);
  };
  JointPosterior.prototype.informationGain = function () {
    var w = this.weights(), nh = this.nh, np = this.pairI.length, gain = new Float64Array(np), h;
    for (h = 0; h < nh; h++) if (!(w[h] > PRUNE)) w[h] = 0;
    for (var k = 0; k < np; k++) {
      var off = k * nh, pa = 0, hb = 0;
      for (h = 0; h < nh; h++) if (w[h] !== 0) { pa += this.S[off + h] * w[h]; hb += this.Hb[off + h] * w[h]; }
      gain[k] = binaryEntropy(Math.min(Math.max(pa, 0), 1)) - hb;
    }
    return gain;
  };
  JointPosterior.prototype.nextQuestion = function () {
    if (!this.pairI.length) return null;
    var gain = this.informationGain(), k = firstBest(gain);
    if (gain[k] <= TIE) return null;
    var i = this.pairI[k], j = this.pairJ[k];
    return { kind: "pairwise", a: [this.candP[i], this.candR[i]], b: [this.candP[j], this.candR[j]] };
  };
  JointPosterior.prototype.plausible = function () {
    var w = this.weights(), nh = this.nh, order = new Array(nh), h;
    for (h = 0; h < nh; h++) order[h] = h;
    order.sort(function (a, b) { return w[b] - w[a] || a - b; });
    var c = 0, last = nh - 1;
    for (h = 0; h < nh; h++) { c += w[order[h]]; if (c >= CREDIBLE_MASS - TIE) { last = h; break; } }
    var cut = w[order[last]] * (1 - 1e-9), region = [];
    for (h = 0; h < nh; h++) if (w[h] >= cut) region.push(h);
    return region;
  };
  JointPosterior.prototype.lossOf = function (j, region) {
    var worst = -Infinity;
    for (var k = 0; k < region.length; k++) {
      var h = region[k], v = this.best[h] - this.curveG[h * this.nc + j];
      if (v > worst) worst = v;
    }
    return worst;
  };
  JointPosterior.prototype.stable = function (tolerance) {
    var region = this.plausible(), chosen = {}, worst = -Infinity;
    for (var k = 0; k < region.length; k++) chosen[this.choice[region[k]]] = true;
    for (var j in chosen) worst = Math.max(worst, this.lossOf(Number(j), region));
    return worst <= tolerance;
  };
  JointPosterior.prototype.estimate = function () {
    var w = this.weights(), a = 0, b = 0;
    for (var h = 0; h < this.nh; h++) { a += w[h] * this.lb[h]; b += w[h] * this.rho[h]; }
    return [a, b];
  };
  JointPosterior.prototype.spread = function () {
    var w = this.weights(), e = this.estimate(), a = 0, b = 0;
    for (var h = 0; h < this.nh; h++) { a += w[h] * Math.pow(this.lb[h] - e[0], 2); b += w[h] * Math.pow(this.rho[h] - e[1], 2); }
    return [Math.sqrt(Math.max(a, 0)), Math.sqrt(Math.max(b, 0))];
  };
  JointPosterior.prototype.feasibleFraction = function () {
    var n = 0;
    for (var h = 0; h < this.nh; h++) n += this.feasible[h];
    return n / this.nh;
  };

  // ------------------------------------------------------------------ the session (sections 8-9)
  function readLambda(v) { return v === "inf" || v === Infinity ? Infinity : Number(v); }

  function fmtG(x) { return String(Number(x.toPrecision(6))); }

  function Session(data) {
    var s = {}, key;
    for (key in DEFAULTS) s[key] = DEFAULTS[key];
    for (key in data.settings || {}) s[key] = data.settings[key];
    s.local_lambda = readLambda(s.local_lambda);
    s.pairwise_lambda = readLambda(s.pairwise_lambda);
    this.settings = s;
    this.curve = data.curve;
    this.local = new LocalBisection(s.rho_sign, s.local_lambda);
    this.joint = new JointPosterior(data.curve.precision, data.curve.recall, s.pairwise_lambda, s.local_lambda);
    this.steps = [];
    this.contradictions = [];
    this.pending = null;
    this.stop = null;
  }
  Session.prototype.count = function (kind) {
    return this.steps.filter(function (st) { return st.kind === kind; }).length;
  };
  Session.prototype.nextQuestion = function () {
    if (this.pending === null && this.stop === null) this.pending = this.choose();
    return this.pending;
  };
  Session.prototype.choose = function () {
    var s = this.settings, nl = this.count("local"), np = this.count("pairwise");
    if (np === 0 && nl < s.local_budget && !this.local.converged()) return this.local.nextQuestion();
    if (np >= s.pairwise_budget) { this.stop = "question budget (" + s.pairwise_budget + " pairwise questions) spent"; return null; }
    if (np >= MIN_PAIRWISE && this.joint.stable(s.tolerance)) { this.stop = "decision stable within tolerance " + fmtG(s.tolerance); return null; }
    var q = this.joint.nextQuestion();
    if (q === null) this.stop = "no candidate pair can change the estimate";
    return q;
  };
  Session.prototype.answer = function (answer) {
    var q = this.nextQuestion();
    if (q === null) return;
    var options = q.kind === "local" ? ["recall", "precision"] : ["a", "b"];
    if (options.indexOf(answer) < 0) throw new Error("answer must be one of " + options.join(", "));
    var step = this.steps.length, accepted;
    if (q.kind === "local") {
      var clash = this.local.update(q, answer, step);
      if (clash) this.contradictions.push(clash);
      accepted = this.joint.applyLocal(q, answer);
    } else accepted = this.joint.applyPairwise(q, answer);
    if (!accepted && !this.contradictions.some(function (c) { return c.step === step; }))
      this.contradictions.push({ step: step, earlier: [], message: "answer " + (step + 1) + " (" + answer + ") is " +
        "inconsistent with the earlier answers: no G(beta, rho) on the grid agrees with all of them; it is weighed " +
        "as a noisy answer and left out of the feasible region." });
    var rec = q.kind === "local" ? { kind: "local", precision: q.precision, recall: q.recall, answer: answer }
                                  : { kind: "pairwise", a: q.a.slice(), b: q.b.slice(), answer: answer };
    this.steps.push(rec);
    this.pending = null;
    this.stop = null;
  };
  function sig4(x) { return Number(x.toPrecision(4)); }
  /* Python's "%g" (6 significant digits, trailing zeros dropped), as the metric's spec writes numbers. */
  function pyG(x) {
    if (x === 0) return Object.is(x, -0) ? "-0" : "0";
    var parts = x.toExponential(5).split("e"), e = Number(parts[1]);
    var strip = function (t) { return t.indexOf(".") < 0 ? t : t.replace(/0+$/, "").replace(/\.$/, ""); };
    if (e < -4 || e >= 6) return strip(parts[0]) + "e" + (e < 0 ? "-" : "+") + (Math.abs(e) < 10 ? "0" : "") + Math.abs(e);
    return strip(x.toFixed(Math.max(0, 5 - e)));
  }
  Session.prototype.result = function () {
    var j = this.joint, est = j.estimate(), sd = j.spread(), region = j.plausible();
    var beta = sig4(Math.exp(est[0])), rho = sig4(est[1]);
    var c = this.curve, values = [], k;
    for (k = 0; k < c.precision.length; k++) values.push(gAt(Math.log(beta), rho, c.precision[k], c.recall[k]));
    var top = Math.max.apply(null, values), pick = 0;
    for (k = 0; k < values.length; k++) if (values[k] >= top - 1e-12) { pick = k; break; }
    var lbMin = Infinity, lbMax = -Infinity, rMin = Infinity, rMax = -Infinity;
    region.forEach(function (h) {
      lbMin = Math.min(lbMin, j.lb[h]); lbMax = Math.max(lbMax, j.lb[h]);
      rMin = Math.min(rMin, j.rho[h]); rMax = Math.max(rMax, j.rho[h]);
    });
    var nl = this.count("local");
    this.nextQuestion();
    return {
      log_beta: est[0], rho: est[1], beta: Math.exp(est[0]), beta_sd_log: sd[0], rho_sd: sd[1],
      beta_range: [Math.exp(lbMin), Math.exp(lbMax)], rho_range: [rMin, rMax],
      feasible_fraction: j.feasibleFraction(),
      local_beta: nl ? Math.exp(this.local.quantile(0.5)) : null,
      metric: { beta: beta, rho: rho, spec: "g(beta=" + pyG(beta) + ", rho=" + pyG(rho) + ")" },
      decision: { index: pick, precision: c.precision[pick], recall: c.recall[pick],
                  threshold: c.thresholds && c.thresholds.length ? c.thresholds[pick] : null,
                  max_loss: j.lossOf(pick, region) },
      stop_reason: this.stop || "in progress",
      contradictions: this.contradictions.map(function (x) { return x.message; })
    };
  };
  Session.prototype.transcript = function () {
    var s = {}, self = this;
    Object.keys(DEFAULTS).forEach(function (key) {
      var v = self.settings[key];
      s[key] = v === Infinity ? "inf" : v;
    });
    return { format: "isometrics-elicitation", version: 1, settings: s,
             curve: { precision: this.curve.precision, recall: this.curve.recall,
                      thresholds: this.curve.thresholds && this.curve.thresholds.length ? this.curve.thresholds : null },
             steps: this.steps };
  };

  // ------------------------------------------------------------------ the page
  var SVGNS = "http://www.w3.org/2000/svg";
  var W = 440, H = 440, M = 44;

  function el(id) { return document.getElementById(id); }
  function pct(x) { return (100 * x).toFixed(1) + " %"; }
  function thousands(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  /* Python's round(): halves to even (the terminal session's wording, elicitation/wording.py). */
  function pyRound(x) {
    var r = Math.round(x);
    if (Math.abs(x % 1) === 0.5 && r % 2 !== 0) r -= 1;
    return r;
  }
  function perThousand(p, r) {
    var hit = pyRound(1000 * p), found = pyRound(1000 * r);
    return "of 1,000 cases flagged, " + thousands(hit) + " are real positives and " + thousands(1000 - hit) +
      " false alarms; of 1,000 real positives, " + thousands(found) + " are found and " + thousands(1000 - found) + " missed";
  }
  /* The stakeholder's words, as elicitation/wording.py says them (answers_summary, regret_words,
     trivial_warning): Python's "{:.3g}" and "{:.1%}". */
  var BETA_WORDS = "the recall/precision ratio R/P at which a point of either is worth the same";
  var RHO_WORDS = "how precision and recall combine: below 0 a weak one drags the score down (as in F-beta), " +
    "above 0 a strong one makes up for a weak one";
  function g3(x) { return String(Number(x.toPrecision(3))); }
  function pc1(x) { return (100 * x).toFixed(1) + "%"; }
  function times(k) { return k === 1 ? "once" : k + " times"; }
  function at(q) { return "R/P = " + g3(q.recall / q.precision) + " (precision " + pc1(q.precision) + ", recall " +
                          pc1(q.recall) + ")"; }
  function answersSummary(steps) {
    var byRatio = function (x, y) { return x.recall / x.precision - y.recall / y.precision; };
    var local = steps.filter(function (st) { return st.kind === "local"; });
    var pairs = steps.filter(function (st) { return st.kind === "pairwise"; });
    var lines = [], n = local.length;
    if (n) {
      var rec = local.filter(function (st) { return st.answer === "recall"; }).sort(byRatio);
      var pre = local.filter(function (st) { return st.answer === "precision"; }).sort(byRatio);
      var ratio = function (st) { return st.recall / st.precision; };
      var every = n === 1 ? "the one local question" : n === 2 ? "both local questions" : "all " + n + " local questions";
      if (!pre.length) {
        var qr = rec[rec.length - 1];
        lines.push("In " + every + " you preferred a gain in recall, even at " + at(qr) + ": recall matters more to you " +
                   "than precision by at least R/P = " + g3(ratio(qr)) + ".");
      } else if (!rec.length) {
        lines.push("In " + every + " you preferred a gain in precision, even at " + at(pre[0]) + ": precision matters " +
                   "more to you than recall by at least P/R = " + g3(1 / ratio(pre[0])) + ".");
      } else if (ratio(rec[rec.length - 1]) < ratio(pre[0])) {
        lines.push("You preferred a gain in recall up to R/P = " + g3(ratio(rec[rec.length - 1])) + " and in precision " +
                   "from R/P = " + g3(ratio(pre[0])) + ": a point of either is worth the same to you between those ratios.");
      } else if (ratio(pre[pre.length - 1]) < ratio(rec[0])) {
        lines.push("You preferred a gain in precision up to R/P = " + g3(ratio(pre[pre.length - 1])) + " and in recall " +
                   "from R/P = " + g3(ratio(rec[0])) + ": a point of either is worth the same to you between those " +
                   "ratios, and beyond them you favour whichever is already ahead.");
      } else {
        lines.push("Your local answers cross (recall at " + at(rec[rec.length - 1]) + ", precision at " + at(pre[0]) +
                   "): see the contradictions.");
      }
    }
    if (pairs.length) {
      var higher = pairs.filter(function (st) {
        var mine = st.answer === "a" ? st.a : st.b, other = st.answer === "a" ? st.b : st.a;
        return mine[1] > other[1];
      }).length;
      lines.push("In " + pairs.length + " comparison" + (pairs.length > 1 ? "s" : "") + " you chose the model with the " +
                 "higher recall " + times(higher) + " and the one with the higher precision " +
                 times(pairs.length - higher) + ".");
    }
    return lines.length ? lines : ["No answers yet."];
  }
  function regretWords(loss) {
    return "whichever plausible metric is yours, this point scores at most " + loss.toFixed(4) + " below that " +
      "metric's best point (on its 0-1 scale)";
  }
  function trivialWarning(p, r) {
    return "the metric picks the top-recall end of the curve (recall " + pc1(r) + ", its lowest precision " + pc1(p) +
      "): that flags (nearly) every case, and your answers set no limit on the precision you would give up for " +
      "recall; check this choice (ask more pairwise questions, or set a floor on precision) before deploying it.";
  }
  function svg(tag, attrs, parent) {
    var node = document.createElementNS(SVGNS, tag);
    for (var k in attrs) node.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(node);
    return node;
  }
  function sx(r) { return M + r * (W - 2 * M); }
  function sy(p) { return H - M - p * (H - 2 * M); }

  /* Points (R, P) of the level curve G = level: for each recall, the precision by bisection (G rises with P). */
  function levelCurve(lb, rho, level) {
    var pts = [];
    for (var k = 1; k <= 120; k++) {
      var r = k / 120;
      if (gAt(lb, rho, 1, r) < level) continue;
      var lo = 1e-9, hi = 1;
      if (gAt(lb, rho, lo, r) >= level) { pts.push([r, 0]); continue; }
      for (var it = 0; it < 60; it++) { var mid = (lo + hi) / 2; if (gAt(lb, rho, mid, r) >= level) hi = mid; else lo = mid; }
      pts.push([r, hi]);
    }
    return pts;
  }
  function polyline(pts, attrs, parent) {
    attrs.points = pts.map(function (q) { return sx(q[0]).toFixed(1) + "," + sy(q[1]).toFixed(1); }).join(" ");
    attrs.fill = "none";
    return svg("polyline", attrs, parent);
  }

  function draw(session, question, res) {
    var root = el("plot");
    while (root.firstChild) root.removeChild(root.firstChild);
    svg("rect", { x: M, y: M, width: W - 2 * M, height: H - 2 * M, fill: "#fff", stroke: "#999" }, root);
    for (var t = 0; t <= 5; t++) {
      var v = t / 5;
      svg("line", { x1: sx(v), y1: H - M, x2: sx(v), y2: H - M + 5, stroke: "#666" }, root);
      svg("text", { x: sx(v), y: H - M + 18, "text-anchor": "middle", "font-size": 11 }, root).textContent = v.toFixed(1);
      svg("line", { x1: M - 5, y1: sy(v), x2: M, y2: sy(v), stroke: "#666" }, root);
      svg("text", { x: M - 8, y: sy(v) + 4, "text-anchor": "end", "font-size": 11 }, root).textContent = v.toFixed(1);
    }
    svg("text", { x: W / 2, y: H - 6, "text-anchor": "middle", "font-size": 12 }, root).textContent = "recall";
    svg("text", { x: 12, y: H / 2, "text-anchor": "middle", "font-size": 12,
                  transform: "rotate(-90 12 " + H / 2 + ")" }, root).textContent = "precision";
    var c = session.curve, curvePts = [];
    for (var k = 0; k < c.precision.length; k++) curvePts.push([c.recall[k], c.precision[k]]);
    polyline(curvePts, { stroke: "#1f77b4", "stroke-width": 2, "data-role": "curve" }, root);
    var lb = res.log_beta, rho = res.rho, beta = Math.exp(lb);
    var clip = svg("clipPath", { id: "plot-area" }, svg("defs", {}, root));
    svg("rect", { x: M, y: M, width: W - 2 * M, height: H - 2 * M }, clip);
    var levels = svg("g", { "clip-path": "url(#plot-area)", "data-role": "levels" }, root);
    var dp = res.decision, at = gAt(lb, rho, dp.precision, dp.recall);
    [at * 0.8, at * 0.9, at, Math.min(at * 1.1, 0.999)].forEach(function (level, i) {
      polyline(levelCurve(lb, rho, level), { stroke: i === 2 ? "#d62728" : "#f4a6a6", "stroke-width": i === 2 ? 2 : 1,
                                             "stroke-dasharray": i === 2 ? "" : "4 3" }, levels);
    });
    // break-even line R/P = beta: P = R / beta
    svg("line", { x1: sx(0), y1: sy(0), x2: sx(Math.min(1, beta)), y2: sy(Math.min(1, 1 / beta)), stroke: "#2ca02c",
                  "stroke-width": 1.5, "stroke-dasharray": "6 4", "data-role": "break-even" }, levels);
    svg("circle", { cx: sx(dp.recall), cy: sy(dp.precision), r: 5, fill: "#d62728" }, root);
    var marks = question === null ? [] : question.kind === "local" ? [["?", question.precision, question.recall]]
      : [["A", question.a[0], question.a[1]], ["B", question.b[0], question.b[1]]];
    marks.forEach(function (mk) {
      svg("circle", { cx: sx(mk[2]), cy: sy(mk[1]), r: 7, fill: "#ff7f0e", stroke: "#333" }, root);
      svg("text", { x: sx(mk[2]) + 10, y: sy(mk[1]) - 8, "font-size": 13, "font-weight": "bold" }, root).textContent = mk[0];
    });
  }

  function option(answer, title, p, r) {
    var b = document.createElement("button");
    b.type = "button";
    b.id = "answer-" + answer;
    b.className = "option";
    b.setAttribute("data-answer", answer);
    var h = document.createElement("strong");
    h.textContent = title;
    b.appendChild(h);
    if (p !== null && r !== null) {
      var d = document.createElement("span");
      d.textContent = "precision " + pct(p) + ", recall " + pct(r);
      b.appendChild(d);
      var t = document.createElement("span");
      t.className = "counts";
      t.textContent = perThousand(p, r);
      b.appendChild(t);
    }
    return b;
  }

  function render(session) {
    var q = session.nextQuestion(), res = session.result(), box = el("question"), n = session.steps.length;
    while (box.firstChild) box.removeChild(box.firstChild);
    var head = document.createElement("h2"), text = document.createElement("p"), opts = document.createElement("div");
    opts.className = "options";
    if (q === null) {
      head.textContent = "Done after " + n + " answers";
      text.textContent = "The questions stopped: " + session.stop + ".";
    } else if (q.kind === "local") {
      head.textContent = "Question " + (n + 1) + ": which gain matters more?";
      text.textContent = "A model has precision " + pct(q.precision) + " and recall " + pct(q.recall) + " (" +
        perThousand(q.precision, q.recall) + "). Would a small gain in recall or in precision matter more to you?";
      opts.appendChild(option("recall", "A gain in recall (find more real cases), e.g. to", q.precision,
                              Math.min(1, q.recall + 0.02)));
      opts.appendChild(option("precision", "A gain in precision (fewer false alarms), e.g. to",
                              Math.min(1, q.precision + 0.02), q.recall));
    } else {
      head.textContent = "Question " + (n + 1) + ": which model would you rather deploy?";
      text.textContent = "Two models, A and B, on the same cases. Pick the one whose errors you would rather live with.";
      opts.appendChild(option("a", "Model A", q.a[0], q.a[1]));
      opts.appendChild(option("b", "Model B", q.b[0], q.b[1]));
    }
    box.appendChild(head);
    box.appendChild(text);
    box.appendChild(opts);
    Array.prototype.forEach.call(opts.querySelectorAll("button"), function (b) {
      b.addEventListener("click", function () { session.answer(b.getAttribute("data-answer")); render(session); });
    });
    var summary = answersSummary(session.steps);
    var trivial = res.decision.index === 0 && res.decision.recall >= 1 - 1e-12;
    var warning = trivial ? trivialWarning(res.decision.precision, res.decision.recall) : "";
    var lines = [
      ["your answers", summary.join(" ")],
      ["beta: " + BETA_WORDS, res.beta.toPrecision(4) + " (plausible " + res.beta_range[0].toPrecision(3) + " to " +
        res.beta_range[1].toPrecision(3) + ")"],
      ["rho: " + RHO_WORDS, res.rho.toPrecision(3) + " (plausible " + res.rho_range[0].toPrecision(3) + " to " +
        res.rho_range[1].toPrecision(3) + ")"],
      ["(beta, rho) pairs that agree with every answer", pct(res.feasible_fraction) + " of those considered at the start"],
      ["metric", res.metric.spec + (q === null ? "" : " (provisional: " + n + " answer" + (n === 1 ? "" : "s") +
        " so far)")],
      ["its pick on the curve", "precision " + pct(res.decision.precision) + ", recall " + pct(res.decision.recall) +
        (res.decision.threshold === null ? "" : ", threshold " + res.decision.threshold.toPrecision(6)) +
        "; " + regretWords(res.decision.max_loss)],
      ["status", q === null ? session.stop : (session.count("pairwise") ? "pairwise questions" : "local questions") +
        ", " + n + " answered"]
    ];
    if (warning) lines.push(["warning", warning]);
    var table = el("estimate");
    while (table.firstChild) table.removeChild(table.firstChild);
    lines.forEach(function (row) {
      var tr = document.createElement("tr"), th = document.createElement("th"), td = document.createElement("td");
      th.textContent = row[0]; td.textContent = row[1];
      tr.appendChild(th); tr.appendChild(td); table.appendChild(tr);
    });
    var notes = el("contradictions");
    while (notes.firstChild) notes.removeChild(notes.firstChild);
    res.contradictions.forEach(function (m) { var li = document.createElement("li"); li.textContent = m; notes.appendChild(li); });
    el("final").hidden = q !== null;
    if (q === null) {
      el("final-metric").textContent = res.metric.spec;
      el("final-uncertainty").textContent = "after " + n + " answer" + (n === 1 ? "" : "s") + ", beta " +
        res.beta.toPrecision(4) + " (the break-even R/P; plausible " +
        res.beta_range[0].toPrecision(3) + " to " + res.beta_range[1].toPrecision(3) + "), rho " + res.rho.toPrecision(3) +
        " (plausible " + res.rho_range[0].toPrecision(3) + " to " + res.rho_range[1].toPrecision(3) + ")";
      el("final-summary").textContent = summary.join(" ");
      el("final-warning").hidden = !warning;
      el("final-warning").textContent = warning ? "Warning: " + warning : "";
      el("final-decision").textContent = (res.decision.threshold === null ? "" : "threshold " +
        res.decision.threshold.toPrecision(6) + ": ") + "precision " + pct(res.decision.precision) + ", recall " +
        pct(res.decision.recall) + " (" + perThousand(res.decision.precision, res.decision.recall) + ")";
    }
    var json = JSON.stringify(session.transcript(), null, 1);
    var link = el("download");
    link.href = "data:application/json;charset=utf-8," + encodeURIComponent(json);
    draw(session, q, res);
    var state = { ready: true, n_answers: n, asked: q, stop_reason: session.stop || "", log_beta: res.log_beta,
                  rho: res.rho, feasible_fraction: res.feasible_fraction, result: res, transcript: session.transcript(),
                  summary: summary, trivial_decision: trivial ? "everyone" : "" };
    window.__elicitationState = Object.freeze(state);
    document.body.setAttribute("data-state", JSON.stringify(state));
  }

  function start() {
    var data = JSON.parse(el("elicitation-data").textContent);
    var session = new Session(data);
    el("restart").addEventListener("click", function () { session = new Session(data); render(session); });
    render(session);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
