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
  var N_LOCAL = 2001, N_LOG_BETA = 161, N_RHO = 121, RHO_MIN = -8, RHO_MAX = 4;
  var LOCAL_WIDTH = 2 * Math.log(1.02), LOCAL_DELTA = 0.05, LOCAL_MIN_INFORMATION = 0.1;
  var LEVELS = [0.1, 0.3, 0.5, 0.7, 0.9];
  var LEVEL_VALUES = [0.2, 0.4, 0.6, 0.8], LEVEL_RECALLS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
  var LEVEL_STEPS = 60, LEVEL_P_MIN = 1e-3, LEVEL_ROUND = 1e9, REFINE = 8, RHO_EDGE_STEP = 4, EMPTY_CELL = 0.01;
  var N_CURVE_CANDIDATES = 12, PRUNE = 1e-15, CREDIBLE_MASS = 0.95, STOP_RISK = 0.01, MIN_PAIRWISE = 1;
  var BETA_RANGE = [0.05, 20];
  var DEFAULTS = { rho_sign: "negative", local_budget: 12, pairwise_budget: 48, tolerance: 0.005,
                   local_lambda: 50.0, pairwise_lambda: 50.0 };

  // ------------------------------------------------------------------ 2-3. grids, G, likelihoods
  function grid(low, high, n) {
    var out = new Float64Array(n);
    for (var k = 0; k < n; k++) out[k] = (low * (n - 1 - k) + high * k) / (n - 1);
    return out;
  }
  function logBetaRange(range) {
    var top = Math.log(range[1]);
    return [range[0] * range[1] === 1 ? -top : Math.log(range[0]), top];
  }
  /* The cell samples of an axis: 2k lower end, 2k + 1 the grid point, 2k + 2 upper end of cell k. */
  function cellSamples(axis) {
    var n = axis.length, h = (axis[n - 1] - axis[0]) / (n - 1), out = new Float64Array(2 * n + 1);
    for (var k = 0; k < n; k++) { out[2 * k + 1] = axis[k]; out[2 * k] = axis[k] - h / 2; }
    out[2 * n] = axis[n - 1] + h / 2;
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

  /* logG with the hypothesis' own terms given: w, w' and expm1(e ln P), expm1(e ln R) (the same doubles). */
  function logGc(lb, rho, w, wc, emp, emr, lp, lr, p, r) {
    if (rho === 0) {
      var beta = Math.exp(lb);
      return Math.log((beta * p + r) / (1 + beta));
    }
    var e = rho + 1;
    if (e === 0) return w * lp + wc * lr;
    return Math.log1p(w * emp + wc * emr) / e;
  }

  function gAt(lb, rho, p, r) { return Math.exp(logG(lb, rho, Math.log(p), Math.log(r), p, r)); }

  function logsig(z) { return -(Math.max(-z, 0) + Math.log1p(Math.exp(-Math.abs(z)))); }

  /* LOCAL_DELTA (dG/dR - dG/dP) at (P, R): the margin of the answer "recall" (section 5). */
  function localGMargin(lb, rho, p, r) {
    if (rho === 0) { var beta = Math.exp(lb); return LOCAL_DELTA * ((1 - beta) / (1 + beta)); }
    var lp = Math.log(p), lr = Math.log(r), x = rho * lb;
    var base = -rho * logG(lb, rho, lp, lr, p, r);
    return LOCAL_DELTA * (Math.exp(base + logsig(-x) + rho * lr) - Math.exp(base + logsig(x) + rho * lp));
  }

  /* The margin of an answer (positive: the hypothesis agrees), in units of G. */
  function answerMargin(q, answer, lb, rho) {
    if (q.kind === "local") {
      var m = localGMargin(lb, rho, q.precision, q.recall);
      return answer === "recall" ? m : -m;
    }
    var d = gAt(lb, rho, q.a[0], q.a[1]) - gAt(lb, rho, q.b[0], q.b[1]);
    return answer === "a" ? d : -d;
  }

  /* The terms of a margin that depend on the point (log beta, rho) alone, for every point of a grid (at
     a * rhos.length + b): the weights w = 1 / (1 + e^-x), w' = 1 / (1 + e^x) of logG (x = rho log beta) and
     log1p(e^-|x|), which logsig(x) and logsig(-x) share; and beta = e^(log beta) of each row. The same for every
     question: computed once per grid. */
  function gridTerms(lbs, rhos) {
    var na = lbs.length, nb = rhos.length, n = na * nb, a, b, k, x, en, ep;
    var w = new Float64Array(n), wc = new Float64Array(n), soft = new Float64Array(n), beta = new Float64Array(na);
    for (a = 0; a < na; a++) {
      beta[a] = Math.exp(lbs[a]);
      for (b = 0; b < nb; b++) {
        k = a * nb + b; x = rhos[b] * lbs[a]; en = Math.exp(-x); ep = Math.exp(x);
        w[k] = 1 / (1 + en); wc[k] = 1 / (1 + ep); soft[k] = Math.log1p(x > 0 ? en : ep);
      }
    }
    return { lbs: lbs, rhos: rhos, w: w, wc: wc, soft: soft, beta: beta };
  }

  /* answerMargin(q, answer, lbs[a], rhos[b]) at the points k = a * rhos.length + b of a grid (``terms``, its
     gridTerms), each computed when first read (at(k)) and kept: the same doubles, with the terms that depend on
     rho alone (e = rho + 1, expm1(e ln P), rho ln P, ...) computed once for the question and those of the point
     alone once for the grid. A posterior reads only the points it still needs (those of hypotheses not yet ruled
     out), all of them with fill(). */
  function Margins(q, answer, terms) {
    var rhos = terms.rhos, nb = rhos.length, b, rho;
    var local = q.kind === "local";
    this.local = local;
    this.flip = local ? answer !== "recall" : answer !== "a";
    this.p1 = local ? q.precision : q.a[0]; this.r1 = local ? q.recall : q.a[1];
    this.p2 = local ? 1 : q.b[0]; this.r2 = local ? 1 : q.b[1];
    this.lp1 = Math.log(this.p1); this.lr1 = Math.log(this.r1); this.lp2 = Math.log(this.p2); this.lr2 = Math.log(this.r2);
    var e = new Float64Array(nb), t1 = new Float64Array(nb), t2 = new Float64Array(nb), t3 = new Float64Array(nb),
      t4 = new Float64Array(nb);
    for (b = 0; b < nb; b++) {
      rho = rhos[b];
      e[b] = rho + 1;
      if (local) { t3[b] = rho * this.lp1; t4[b] = rho * this.lr1; }
      if (rho === 0 || e[b] === 0) continue;
      t1[b] = Math.expm1(e[b] * this.lp1); t2[b] = Math.expm1(e[b] * this.lr1);
      if (!local) { t3[b] = Math.expm1(e[b] * this.lp2); t4[b] = Math.expm1(e[b] * this.lr2); }
    }
    this.e = e; this.t1 = t1; this.t2 = t2; this.t3 = t3; this.t4 = t4;
    this.terms = terms; this.nb = nb;
    this.values = new Float64Array(terms.lbs.length * nb);
    this.done = new Uint8Array(terms.lbs.length * nb);
  }
  Margins.prototype.at = function (k) {
    if (this.done[k]) return this.values[k];
    var nb = this.nb, a = (k / nb) | 0, b = k - a * nb, T = this.terms, lb = T.lbs[a], rho = T.rhos[b], beta = T.beta[a];
    var e = this.e[b], m, x, w, wc, lg;
    if (this.local) {
      if (rho === 0) m = LOCAL_DELTA * ((1 - beta) / (1 + beta));
      else {  // localGMargin: logsig(x) and logsig(-x) share log1p(exp(-|x|))
        x = rho * lb; w = T.w[k]; wc = T.wc[k];
        lg = e === 0 ? w * this.lp1 + wc * this.lr1 : Math.log1p(w * this.t1[b] + wc * this.t2[b]) / e;
        var base = -rho * lg, soft = T.soft[k];
        m = LOCAL_DELTA * (Math.exp(base + -(Math.max(x, 0) + soft) + this.t4[b]) -
                           Math.exp(base + -(Math.max(-x, 0) + soft) + this.t3[b]));
      }
    } else if (rho === 0) {
      m = Math.exp(Math.log((beta * this.p1 + this.r1) / (1 + beta))) - Math.exp(Math.log((beta * this.p2 + this.r2) / (1 + beta)));
    } else {
      w = T.w[k]; wc = T.wc[k];
      m = e === 0 ? Math.exp(w * this.lp1 + wc * this.lr1) - Math.exp(w * this.lp2 + wc * this.lr2)
        : Math.exp(Math.log1p(w * this.t1[b] + wc * this.t2[b]) / e) - Math.exp(Math.log1p(w * this.t3[b] + wc * this.t4[b]) / e);
    }
    m = this.flip ? -m : m;
    this.values[k] = m; this.done[k] = 1;
    return m;
  };
  /* Every point's margin (the array of values, grid order). */
  Margins.prototype.fill = function () {
    for (var k = 0; k < this.values.length; k++) if (!this.done[k]) this.at(k);
    return this.values;
  };

  /* gAt(lbs[a], rho, ps[c], rs[c]) for every a and c, at out[a * ps.length + c] (the same doubles). */
  function gTable(lbs, rho, ps, rs) {
    var na = lbs.length, nc = ps.length, out = new Float64Array(na * nc), a, c, e = rho + 1;
    var lp = new Float64Array(nc), lr = new Float64Array(nc), tp = new Float64Array(nc), tr = new Float64Array(nc);
    for (c = 0; c < nc; c++) {
      lp[c] = Math.log(ps[c]); lr[c] = Math.log(rs[c]);
      if (rho !== 0 && e !== 0) { tp[c] = Math.expm1(e * lp[c]); tr[c] = Math.expm1(e * lr[c]); }
    }
    for (a = 0; a < na; a++) {
      var lb = lbs[a], row = a * nc;
      if (rho === 0) {
        var beta = Math.exp(lb);
        for (c = 0; c < nc; c++) out[row + c] = Math.exp(Math.log((beta * ps[c] + rs[c]) / (1 + beta)));
        continue;
      }
      var x = rho * lb, w = 1 / (1 + Math.exp(-x)), wc = 1 / (1 + Math.exp(x));
      for (c = 0; c < nc; c++)
        out[row + c] = Math.exp(e === 0 ? w * lp[c] + wc * lr[c] : Math.log1p(w * tp[c] + wc * tr[c]) / e);
    }
    return out;
  }

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

  /* Points on the level curves of the estimate (section 7) and their pairs within a level. */
  function levelCandidates(lb, rho) {
    var ps = [], rs = [], groups = [], k, i, j;
    for (k = 0; k < LEVEL_VALUES.length; k++) {
      var level = LEVEL_VALUES[k];
      for (i = 0; i < LEVEL_RECALLS.length; i++) {
        var r = LEVEL_RECALLS[i];
        if (!(gAt(lb, rho, 1, r) >= level && gAt(lb, rho, LEVEL_P_MIN, r) < level)) continue;
        var lo = LEVEL_P_MIN, hi = 1;
        for (var it = 0; it < LEVEL_STEPS; it++) {
          var mid = (lo + hi) / 2;
          if (gAt(lb, rho, mid, r) >= level) hi = mid; else lo = mid;
        }
        ps.push(Math.floor(hi * LEVEL_ROUND + 0.5) / LEVEL_ROUND); rs.push(r); groups.push(k);
      }
    }
    var pi = [], pj = [];
    for (i = 0; i < ps.length; i++) for (j = i + 1; j < ps.length; j++) if (groups[i] === groups[j]) { pi.push(i); pj.push(j); }
    return { p: ps, r: rs, i: pi, j: pj };
  }

  // ------------------------------------------------------------------ 5. local questions
  function localPoint(ratio) {
    var scale = Math.max(1, ratio);
    return [0.8 / scale, 0.8 * ratio / scale];
  }

  function LocalBisection(rhoSign, lam, range) {
    this.rhoSign = rhoSign;
    this.lam = lam;
    var lbr = logBetaRange(range);
    this.x = grid(lbr[0], lbr[1], N_LOCAL);
    var rg = grid(RHO_MIN, RHO_MAX, N_RHO), rho = [];
    for (var j = 0; j < N_RHO; j++) {
      if ((rhoSign === "negative" && rg[j] < 0) || (rhoSign === "positive" && rg[j] > 0)) rho.push(rg[j]);
    }
    if (rhoSign === "zero") rho = [0];
    this.rho = rho;
    this.lw = new Float64Array(N_LOCAL * rho.length);  // x-major: k * nr + j
    this.bounds = [];
    this.n = 0;
    this.cached = null;  // the weights of lw, until lw changes
    this.asked = null;  // the last question whose margins were computed, and those margins (answer "recall")
    this.margins = null;
    this.terms = null;  // gridTerms(x, rho), at the first question
  }
  LocalBisection.prototype.weights = function () {
    if (this.cached === null) this.cached = this.marginalWeights();
    return this.cached;
  };
  /* answerMargin(q, "recall", x, rho) on the grid (x-major, Margins), kept for the question last asked. */
  LocalBisection.prototype.recallMargins = function (q) {
    if (this.asked === null || this.asked.precision !== q.precision || this.asked.recall !== q.recall) {
      if (this.terms === null) this.terms = gridTerms(this.x, this.rho);
      this.margins = new Margins(q, "recall", this.terms);
      this.asked = { precision: q.precision, recall: q.recall };
    }
    return this.margins;
  };
  LocalBisection.prototype.marginalWeights = function () {
    var nr = this.rho.length, top = -Infinity, k, j;
    for (k = 0; k < this.lw.length; k++) if (this.lw[k] > top) top = this.lw[k];
    var w = new Float64Array(N_LOCAL), s = 0;
    for (k = 0; k < N_LOCAL; k++) {
      var v = 0;
      for (j = 0; j < nr; j++) v += Math.exp(this.lw[k * nr + j] - top);
      w[k] = v; s += v;
    }
    for (k = 0; k < N_LOCAL; k++) w[k] /= s;
    return w;
  };
  LocalBisection.prototype.quantile = function (q) {
    var w = this.weights(), c = 0;
    for (var k = 0; k < w.length; k++) { c += w[k]; if (c >= q - TIE) return this.x[k]; }
    return this.x[w.length - 1];
  };
  LocalBisection.prototype.converged = function () {
    if (this.rhoSign === "zero") return this.n >= 1;
    return this.quantile(0.975) - this.quantile(0.025) <= LOCAL_WIDTH ||
      (this.n > 0 && this.information() < LOCAL_MIN_INFORMATION);
  };
  /* Expected information (nats) of the next answer about (log beta, rho): H(E p) - E H(p). */
  LocalBisection.prototype.information = function () {
    var q = this.nextQuestion(), nr = this.rho.length, w = normalise(this.lw), k, j, mean = 0, cond = 0;
    var margins = this.recallMargins(q);
    for (k = 0; k < N_LOCAL; k++) for (j = 0; j < nr; j++) {
      var h = k * nr + j;
      if (w[h] === 0) continue;  // adds +0 to both sums: its margin is not needed
      var m = margins.at(h), p = this.lam === Infinity ? hardLikelihood(m) : Math.exp(logsig(this.lam * m));
      mean += w[h] * p; cond += w[h] * binaryEntropy(p);
    }
    return binaryEntropy(mean) - cond;
  };
  LocalBisection.prototype.nextQuestion = function () {
    var ratio = this.rhoSign === "zero" ? 1 : Math.exp(this.quantile(0.5));
    var pr = localPoint(ratio);
    return { kind: "local", precision: pr[0], recall: pr[1] };
  };
  LocalBisection.prototype.exactBounds = function () {
    var low = -Infinity, high = Infinity;
    this.bounds.forEach(function (b) { if (b[2]) low = Math.max(low, b[1]); else high = Math.min(high, b[1]); });
    return [low === -Infinity ? 0 : Math.exp(low), high === Infinity ? Infinity : Math.exp(high)];
  };
  LocalBisection.prototype.update = function (q, answer, step) {
    var ratio = q.recall / q.precision, k, j, nr = this.rho.length;
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
    var next = new Float64Array(this.lw.length), finite = false, margins = this.recallMargins(q);
    var recall = answer === "recall";
    for (k = 0; k < N_LOCAL; k++) for (j = 0; j < nr; j++) {
      var h = k * nr + j;
      if (this.lw[h] === -Infinity) { next[h] = -Infinity; continue; }  // ruled out: stays so, whatever the margin
      next[h] = this.lw[h] + logLikelihood(recall ? margins.at(h) : -margins.at(h), this.lam);
      if (isFinite(next[h])) finite = true;
    }
    this.cached = null;
    if (!finite) {
      if (!clash.length) for (k = 0; k < this.bounds.length - 1; k++) clash.push(this.bounds[k][0]);
      this.bounds.pop();
    } else this.lw = next;
    if (!clash.length) return null;
    return { step: step, earlier: clash, message: "answer " + (step + 1) + " (" + answer + " at R/P = " +
             ratio.toPrecision(4) + ") contradicts answer(s) " + clash.map(function (s) { return s + 1; }).join(", ") +
             "; the answers near the break-even point are the hardest: ask again or accept the noise model's weighing." };
  };

  // ------------------------------------------------------------------ 6-8. the joint posterior
  function JointPosterior(curveP, curveR, lam, localLam, range) {
    var nh = N_LOG_BETA * N_RHO, h, j, k;
    var lbr = logBetaRange(range);
    this.lbAxis = grid(lbr[0], lbr[1], N_LOG_BETA);
    this.rhoAxis = grid(RHO_MIN, RHO_MAX, N_RHO);
    this.lbFine = cellSamples(this.lbAxis);
    this.rhoFine = cellSamples(this.rhoAxis);
    this.nh = nh;
    this.lb = new Float64Array(nh);
    this.rho = new Float64Array(nh);
    for (h = 0; h < nh; h++) { this.lb[h] = this.lbAxis[Math.floor(h / N_RHO)]; this.rho[h] = this.rhoAxis[h % N_RHO]; }
    this.w = new Float64Array(nh);  // each hypothesis' weights w, w' (logG's expressions, computed once)
    this.wc = new Float64Array(nh);
    for (h = 0; h < nh; h++) { var x0 = this.rho[h] * this.lb[h]; this.w[h] = 1 / (1 + Math.exp(-x0)); this.wc[h] = 1 / (1 + Math.exp(x0)); }
    this.lam = lam;
    this.localLam = localLam;
    this.lw = new Float64Array(nh);
    this.feasible = new Uint8Array(nh).fill(1);
    this.hard = new Uint8Array(nh).fill(1);
    this.fineOk = new Uint8Array(this.lbFine.length * this.rhoFine.length).fill(1);
    this.hardW = new Float64Array(nh);
    this.hardAnswers = [];
    this.witness = null;
    this.lastClash = [];
    this.cached = null;  // the weights and the estimate, until an answer changes them
    this.cachedEstimate = null;
    this.fineTerms = null;  // gridTerms(lbFine, rhoFine), at the first answer
    this.curveP = curveP; this.curveR = curveR;
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
    // the fixed candidates (section 7): the synthetic grid, then the curve's spread points
    var cp = [], cr = [];
    for (var a = 0; a < LEVELS.length; a++) for (var b = 0; b < LEVELS.length; b++) { cp.push(LEVELS[a]); cr.push(LEVELS[b]); }
    if (nc) spread(nc, N_CURVE_CANDIDATES).forEach(function (i) { cp.push(curveP[i]); cr.push(curveR[i]); });
    this.candP = cp; this.candR = cr;
    this.pairI = []; this.pairJ = [];
    for (var i = 0; i < cp.length; i++) for (j = i + 1; j < cp.length; j++)
      if ((cp[i] - cp[j]) * (cr[i] - cr[j]) < 0) { this.pairI.push(i); this.pairJ.push(j); }
    // each fixed pair's answer probability S and expected entropy Hb under each hypothesis (hypothesis-major:
    // h * np + k), a hypothesis' row computed when it first carries weight (fillRows): with noiseless answers
    // most never do
    var ncand = cp.length;
    this.candLp = new Float64Array(ncand); this.candLr = new Float64Array(ncand);
    this.candEp = new Float64Array(ncand * N_RHO); this.candEr = new Float64Array(ncand * N_RHO);
    for (j = 0; j < ncand; j++) {
      this.candLp[j] = Math.log(cp[j]); this.candLr[j] = Math.log(cr[j]);
      this.candEp.set(this.expm1ByRho(this.candLp[j]), j * N_RHO); this.candEr.set(this.expm1ByRho(this.candLr[j]), j * N_RHO);
    }
    this.S = new Float64Array(nh * this.pairI.length);
    this.Hb = new Float64Array(nh * this.pairI.length);
    this.rowDone = new Uint8Array(nh);
  }
  /* The rows of S and Hb of the hypotheses ``hs`` not computed yet: for each, G at the fixed candidates
     (gMatrix's doubles), then sEntropy of each pair's difference. */
  JointPosterior.prototype.fillRows = function (hs) {
    var np = this.pairI.length, ncand = this.candP.length, g = new Float64Array(ncand), t, j, k;
    for (t = 0; t < hs.length; t++) {
      var h = hs[t];
      if (this.rowDone[h]) continue;
      var c = h % N_RHO, lb = this.lb[h], rho = this.rho[h], w = this.w[h], wc = this.wc[h], off = h * np;
      for (j = 0; j < ncand; j++)
        g[j] = Math.exp(logGc(lb, rho, w, wc, this.candEp[j * N_RHO + c], this.candEr[j * N_RHO + c], this.candLp[j],
                              this.candLr[j], this.candP[j], this.candR[j]));
      for (k = 0; k < np; k++) sEntropyInto(g[this.pairI[k]] - g[this.pairJ[k]], this.lam, this.S, this.Hb, off + k);
      this.rowDone[h] = 1;
    }
  };
  /* sEntropy's two values written at out[k] (no array per call). */
  function sEntropyInto(m, lam, s, hb, k) {
    if (lam === Infinity) { var sh = hardLikelihood(m); s[k] = sh; hb[k] = sh === 0.5 ? Math.log(2) : 0; return; }
    var z = lam * m, ls = logsig(z), sv = Math.exp(ls);
    s[k] = sv;
    hb[k] = (1 - sv) * z - ls;
  }
  /* expm1(e ln x) for every rho of the grid (e = rho + 1): the terms of logG that depend on rho alone. */
  JointPosterior.prototype.expm1ByRho = function (lx) {
    var out = new Float64Array(N_RHO);
    for (var c = 0; c < N_RHO; c++) out[c] = Math.expm1((this.rhoAxis[c] + 1) * lx);
    return out;
  };
  JointPosterior.prototype.gMatrix = function (ps, rs) {
    var n = ps.length, out = new Float64Array(this.nh * n);
    for (var j = 0; j < n; j++) {
      var p = ps[j], r = rs[j], lp = Math.log(p), lr = Math.log(r), ep = this.expm1ByRho(lp), er = this.expm1ByRho(lr);
      for (var h = 0; h < this.nh; h++) {
        var c = h % N_RHO;
        out[h * n + j] = Math.exp(logGc(this.lb[h], this.rho[h], this.w[h], this.wc[h], ep[c], er[c], lp, lr, p, r));
      }
    }
    return out;
  };
  /* The posterior weights (the same array until the next answer: read it, do not write it). */
  JointPosterior.prototype.weights = function () {
    if (this.cached === null) this.cached = this.posterior();
    return this.cached;
  };
  JointPosterior.prototype.posterior = function () {
    var lw = new Float64Array(this.nh);
    for (var h = 0; h < this.nh; h++) lw[h] = this.hard[h] ? this.lw[h] + this.hardW[h] : -Infinity;
    return normalise(lw);
  };
  /* Whether (lb, rho) agrees strictly (margin > TIE) with every noiseless answer and the extra one. */
  JointPosterior.prototype.holds = function (lb, rho, extra) {
    for (var k = 0; k < this.hardAnswers.length; k++) {
      var x = this.hardAnswers[k];
      if (!(answerMargin(x.q, x.answer, lb, rho) > TIE)) return false;
    }
    return answerMargin(extra.q, extra.answer, lb, rho) > TIE;
  };
  JointPosterior.prototype.findWitness = function (cells, extra) {
    var k, a, b, n = cells.length;
    if (this.witness !== null && this.holds(this.witness[0], this.witness[1], extra)) return this.witness;
    for (k = 0; k < n; k++) {
      if (!cells[k]) continue;
      var ci = Math.floor(k / N_RHO), cj = k % N_RHO;
      for (a = 0; a < 3; a++) for (b = 0; b < 3; b++) {
        var lb = this.lbFine[2 * ci + a], rho = this.rhoFine[2 * cj + b];
        if (this.holds(lb, rho, extra)) return [lb, rho];
      }
    }
    var hl = (this.lbAxis[N_LOG_BETA - 1] - this.lbAxis[0]) / (N_LOG_BETA - 1);
    var hr = (this.rhoAxis[N_RHO - 1] - this.rhoAxis[0]) / (N_RHO - 1);
    for (k = 0; k < n; k++) {
      if (!cells[k]) continue;
      var li = this.lbAxis[Math.floor(k / N_RHO)], rj = this.rhoAxis[k % N_RHO];
      for (a = 0; a < REFINE; a++) for (b = 0; b < REFINE; b++) {
        var l2 = li + hl * ((a + 0.5) / REFINE - 0.5), r2 = rj + hr * ((b + 0.5) / REFINE - 0.5);
        if (this.holds(l2, r2, extra)) return [l2, r2];
      }
    }
    return null;
  };
  /* The noiseless answers that no fine sample agreeing with the answer (its margins there: ``margins``) agrees with. */
  JointPosterior.prototype.clashes = function (margins) {
    var nf = this.lbFine.length, mf = this.rhoFine.length, out = [], a, b, k;
    var ok = new Uint8Array(nf * mf);
    for (a = 0; a < nf * mf; a++) ok[a] = margins[a] > TIE ? 1 : 0;
    for (k = 0; k < this.hardAnswers.length; k++) {
      var x = this.hardAnswers[k], found = false;
      for (a = 0; a < nf && !found; a++) for (b = 0; b < mf; b++)
        if (ok[a * mf + b] && answerMargin(x.q, x.answer, this.lbFine[a], this.rhoFine[b]) > TIE) { found = true; break; }
      if (!found) out.push(x.step);
    }
    return out;
  };
  JointPosterior.prototype.apply = function (step, q, answer) {
    var lam = q.kind === "local" ? this.localLam : this.lam, slack = lam === Infinity ? TIE : 2 / lam;
    var nf = this.lbFine.length, mf = this.rhoFine.length, a, b, h, i, j;
    this.cached = null;
    this.cachedEstimate = null;
    // the answer's margin at the fine samples (read as needed); the hypotheses' own (lbAxis[i], rhoAxis[j]) are the
    // samples (2i + 1, 2j + 1). Whether a cell has a sample agreeing with the answer (within the slack) matters only
    // for the cells still feasible, or still in the noiseless region when the answer is noiseless: the others stay out.
    if (this.fineTerms === null) this.fineTerms = gridTerms(this.lbFine, this.rhoFine);
    var margins = new Margins(q, answer, this.fineTerms), hard = lam === Infinity;
    var cellOk = new Uint8Array(this.nh), inside = new Uint8Array(this.nh), any = false;
    for (i = 0; i < N_LOG_BETA; i++) for (j = 0; j < N_RHO; j++) {
      var c = 0;
      h = i * N_RHO + j;
      if (this.feasible[h] || (hard && this.hard[h]))
        for (a = 0; a < 3 && !c; a++) for (b = 0; b < 3; b++) if (margins.at((2 * i + a) * mf + 2 * j + b) >= -slack) { c = 1; break; }
      cellOk[h] = c;
      inside[h] = this.feasible[h] && c ? 1 : 0;
      if (inside[h]) any = true;
    }
    this.lastClash = [];
    if (any && lam === Infinity) {
      var cells = new Uint8Array(this.nh);
      for (h = 0; h < this.nh; h++) cells[h] = this.hard[h] && cellOk[h] ? 1 : 0;
      var w = this.findWitness(cells, { q: q, answer: answer });
      any = w !== null;
      if (any) {
        this.witness = w; this.hard = cells; this.hardAnswers.push({ step: step, q: q, answer: answer });
        for (a = 0; a < nf * mf; a++) if (this.fineOk[a] && !(margins.at(a) >= -TIE)) this.fineOk[a] = 0;
        for (i = 0; i < N_LOG_BETA; i++) for (j = 0; j < N_RHO; j++) {
          var rows = [0, 0, 0];
          for (a = 0; a < 3; a++) rows[a] = this.fineOk[(2 * i + a) * mf + 2 * j] + this.fineOk[(2 * i + a) * mf + 2 * j + 1] +
                                          this.fineOk[(2 * i + a) * mf + 2 * j + 2];
          this.hardW[i * N_RHO + j] = Math.log(rows[0] + rows[1] + rows[2] + EMPTY_CELL);
        }
      }
    }
    if (any) this.feasible = inside;
    else this.lastClash = this.clashes(margins.fill());
    if (lam !== Infinity) for (i = 0; i < N_LOG_BETA; i++) for (j = 0; j < N_RHO; j++)
      this.lw[i * N_RHO + j] += logLikelihood(margins.at((2 * i + 1) * mf + 2 * j + 1), lam);
    return any;
  };
  JointPosterior.prototype.informationGain = function () {
    var w = this.weights().slice(), nh = this.nh, np = this.pairI.length, h, k;
    for (h = 0; h < nh; h++) if (!(w[h] > PRUNE)) w[h] = 0;
    var active = [];
    for (h = 0; h < nh; h++) if (w[h] !== 0) active.push(h);
    var est = this.estimate(), lc = levelCandidates(est[0], est[1]), nl = lc.i.length;
    var gain = new Float64Array(np + nl), pairs = [], na = active.length, t;
    // each pair's sums over the hypotheses in the same order (t ascending), the rows read in memory order
    var pa = new Float64Array(np), hb = new Float64Array(np), S = this.S, Hb = this.Hb;
    this.fillRows(active);
    for (t = 0; t < na; t++) {
      var wt = w[active[t]], row = active[t] * np;
      for (k = 0; k < np; k++) { pa[k] += S[row + k] * wt; hb[k] += Hb[row + k] * wt; }
    }
    for (k = 0; k < np; k++) {
      gain[k] = binaryEntropy(Math.min(Math.max(pa[k], 0), 1)) - hb[k];
      pairs.push([[this.candP[this.pairI[k]], this.candR[this.pairI[k]]], [this.candP[this.pairJ[k]], this.candR[this.pairJ[k]]]]);
    }
    var gl = new Float64Array(na * lc.p.length);
    for (t = 0; t < lc.p.length; t++) {
      var lp = Math.log(lc.p[t]), lr = Math.log(lc.r[t]), ep = this.expm1ByRho(lp), er = this.expm1ByRho(lr);
      for (k = 0; k < na; k++) {
        h = active[k];
        var c = h % N_RHO;
        gl[t * na + k] = Math.exp(logGc(this.lb[h], this.rho[h], this.w[h], this.wc[h], ep[c], er[c], lp, lr, lc.p[t], lc.r[t]));
      }
    }
    var se = new Float64Array(2), se1 = new Float64Array(2);
    for (t = 0; t < nl; t++) {
      var pa2 = 0, hb2 = 0, oi = lc.i[t] * na, oj = lc.j[t] * na;
      for (k = 0; k < na; k++) {
        var wk = w[active[k]];
        sEntropyInto(gl[oi + k] - gl[oj + k], this.lam, se, se1, 0);
        pa2 += se[0] * wk; hb2 += se1[0] * wk;
      }
      gain[np + t] = binaryEntropy(Math.min(Math.max(pa2, 0), 1)) - hb2;
      pairs.push([[lc.p[lc.i[t]], lc.r[lc.i[t]]], [lc.p[lc.j[t]], lc.r[lc.j[t]]]]);
    }
    return { gain: gain, pairs: pairs };
  };
  JointPosterior.prototype.nextQuestion = function () {
    var ig = this.informationGain();
    if (!ig.gain.length) return null;
    var k = firstBest(ig.gain);
    if (ig.gain[k] <= TIE) return null;
    return { kind: "pairwise", a: ig.pairs[k][0].slice(), b: ig.pairs[k][1].slice() };
  };
  JointPosterior.prototype.plausible = function () {
    // the weights from the largest down until they hold CREDIBLE_MASS (only the values, not which hypothesis
    // holds each, enter the sum: a typed array's numeric sort gives them in the same order); the zero weights
    // (most, once noiseless answers rule hypotheses out) come last and add nothing, so only the positive ones
    // are sorted, unless the mass is never reached (then the cut is the smallest weight, as the loop ends)
    var w = this.weights(), nh = this.nh, np = 0, h;
    for (h = 0; h < nh; h++) if (w[h] > 0) np++;
    var sorted = new Float64Array(np);
    for (h = 0, np = 0; h < nh; h++) if (w[h] > 0) sorted[np++] = w[h];
    sorted.sort();
    var c = 0, last = null;
    for (h = np - 1; h >= 0; h--) { c += sorted[h]; if (c >= CREDIBLE_MASS - TIE) { last = sorted[h]; break; } }
    if (last === null) last = w.slice().sort()[0];
    var cut = last * (1 - 1e-9), region = [];
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
  JointPosterior.prototype.pick = function () {
    var est = this.estimate(), g = [];
    for (var c = 0; c < this.nc; c++) g.push(gAt(est[0], est[1], this.curveP[c], this.curveR[c]));
    return firstBest(g);
  };
  /* Posterior probability that the pick loses more than the tolerance; stable when it is at most STOP_RISK. */
  JointPosterior.prototype.stable = function (tolerance) {
    var w = this.weights(), j = this.pick(), risk = 0;
    for (var h = 0; h < this.nh; h++) if (this.best[h] - this.curveG[h * this.nc + j] > tolerance) risk += w[h];
    return risk <= STOP_RISK + TIE;
  };
  /* The edges of the box where the posterior has mass > 1 - CREDIBLE_MASS (section 8). */
  JointPosterior.prototype.edges = function (tolerance) {
    var w = this.weights(), out = [], edge = 1 - CREDIBLE_MASS, i, j, lo = 0, hi = 0, top = 0, bottom = 0;
    for (j = 0; j < N_RHO; j++) { lo += w[j]; hi += w[(N_LOG_BETA - 1) * N_RHO + j]; }
    for (i = 0; i < N_LOG_BETA; i++) { top += w[i * N_RHO + N_RHO - 1]; bottom += w[i * N_RHO]; }
    if (lo > edge) out.push("beta = " + pyFmt(Math.exp(this.lbAxis[0]), 3) + " (its lower end)");
    if (hi > edge) out.push("beta = " + pyFmt(Math.exp(this.lbAxis[N_LOG_BETA - 1]), 3) + " (its upper end)");
    if (top > edge) out.push("rho = " + pyFmt(this.rhoAxis[N_RHO - 1], 6) + " (its upper end)");
    if (bottom > edge) {
      var pick = this.pick(), mass = 0, nc = this.nc;
      var table = gTable(this.lbAxis, RHO_MIN - RHO_EDGE_STEP, this.curveP, this.curveR);
      for (i = 0; i < N_LOG_BETA; i++) {
        var best = -Infinity, at = 0;
        for (var c = 0; c < nc; c++) {
          var g = table[i * nc + c];
          if (g > best) best = g;
          if (c === pick) at = g;
        }
        if (best - at > tolerance) mass += w[i * N_RHO];
      }
      if (mass > edge) out.push("rho = " + pyFmt(RHO_MIN, 6) + " (its lower end)");
    }
    return out;
  };
  JointPosterior.prototype.estimate = function () {
    if (this.cachedEstimate === null) {
      var w = this.weights(), a = 0, b = 0;
      for (var h = 0; h < this.nh; h++) { a += w[h] * this.lb[h]; b += w[h] * this.rho[h]; }
      this.cachedEstimate = [a, b];
    }
    return this.cachedEstimate.slice();
  };
  JointPosterior.prototype.spread = function () {
    var w = this.weights(), e = this.estimate(), a = 0, b = 0;
    for (var h = 0; h < this.nh; h++) { a += w[h] * Math.pow(this.lb[h] - e[0], 2); b += w[h] * Math.pow(this.rho[h] - e[1], 2); }
    return [Math.sqrt(Math.max(a, 0)), Math.sqrt(Math.max(b, 0))];
  };
  JointPosterior.prototype.logBetaQuantile = function (q) {
    var w = this.weights(), m = new Float64Array(N_LOG_BETA), i, j, c = 0;
    for (i = 0; i < N_LOG_BETA; i++) for (j = 0; j < N_RHO; j++) m[i] += w[i * N_RHO + j];
    var h = (this.lbAxis[N_LOG_BETA - 1] - this.lbAxis[0]) / (N_LOG_BETA - 1);
    for (i = 0; i < N_LOG_BETA; i++) {
      c += m[i];
      if (c >= q - TIE) {
        var frac = m[i] > 0 ? Math.min(Math.max((q - (c - m[i])) / m[i], 0), 1) : 0.5;
        return this.lbAxis[i] - h / 2 + h * frac;
      }
    }
    return this.lbAxis[N_LOG_BETA - 1];
  };
  JointPosterior.prototype.feasibleFraction = function () {
    var n = 0;
    for (var h = 0; h < this.nh; h++) n += this.feasible[h];
    return n / this.nh;
  };

  // ------------------------------------------------------------------ the session (sections 8-9)
  function readLambda(v) { return v === "inf" || v === Infinity ? Infinity : Number(v); }

  function fmtG(x) { return pyFmt(x, 6); }
  /* Python's "%.<digits>g" (trailing zeros dropped), as the engine's messages and the metric's spec write numbers. */
  function pyFmt(x, digits) {
    if (x === 0) return Object.is(x, -0) ? "-0" : "0";
    var parts = x.toExponential(digits - 1).split("e"), e = Number(parts[1]);
    var strip = function (t) { return t.indexOf(".") < 0 ? t : t.replace(/0+$/, "").replace(/\.$/, ""); };
    if (e < -4 || e >= digits) return strip(parts[0]) + "e" + (e < 0 ? "-" : "+") + (Math.abs(e) < 10 ? "0" : "") + Math.abs(e);
    return strip(x.toFixed(Math.max(0, digits - 1 - e)));
  }

  function Session(data) {
    var s = {}, key;
    for (key in DEFAULTS) s[key] = DEFAULTS[key];
    for (key in data.settings || {}) s[key] = data.settings[key];
    s.local_lambda = readLambda(s.local_lambda);
    s.pairwise_lambda = readLambda(s.pairwise_lambda);
    this.settings = s;
    this.range = s.beta_range ? [Number(s.beta_range[0]), Number(s.beta_range[1])] : BETA_RANGE;
    this.curve = data.curve;
    this.local = new LocalBisection(s.rho_sign, s.local_lambda, this.range);
    this.joint = new JointPosterior(data.curve.precision, data.curve.recall, s.pairwise_lambda, s.local_lambda, this.range);
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
    if (np >= MIN_PAIRWISE && this.joint.stable(s.tolerance)) {
      var edges = this.joint.edges(s.tolerance);
      this.stop = edges.length ? "the estimate sits at the edge of the hypothesis box (" + edges.join("; ") + "), so the " +
        "decision is not settled: widen the box, e.g. Elicitation(beta_range=(0.005, 200)), and ask again"
        : "decision stable within tolerance " + fmtG(s.tolerance);
      return null;
    }
    var q = this.joint.nextQuestion();
    if (q === null) this.stop = "no candidate pair can change the estimate";
    return q;
  };
  Session.prototype.answer = function (answer) {
    var q = this.nextQuestion();
    if (q === null) return;
    var options = q.kind === "local" ? ["recall", "precision"] : ["a", "b"];
    if (options.indexOf(answer) < 0) throw new Error("answer must be one of " + options.join(", "));
    var step = this.steps.length, accepted, s0 = this.settings;
    if (q.kind === "local") {
      var clash = this.local.update(q, answer, step);
      if (clash) this.contradictions.push(clash);
    }
    accepted = this.joint.apply(step, q, answer);
    if (!accepted && !this.contradictions.some(function (c) { return c.step === step; })) {
      var earlier = this.joint.lastClash.slice();
      var which = earlier.length ? "answer(s) " + earlier.map(function (k) { return k + 1; }).join(", ") : "the earlier answers taken together";
      var noiseless = (q.kind === "local" ? s0.local_lambda : s0.pairwise_lambda) === Infinity;
      this.contradictions.push({ step: step, earlier: earlier, message: "answer " + (step + 1) + " (" + answer + ") contradicts " +
        which + ": no G(beta, rho) in the box agrees with all of them; " + (noiseless
          ? "it is left out of the region and the estimate; answer again, or take the answers as noisy (e.g. pairwise_lambda=50, local_lambda=50)."
          : "it is weighed as a noisy answer and left out of the feasible region.") });
    }
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
      beta_bounds: nl ? this.local.exactBounds() : [0, Infinity],
      beta_interval: [Math.exp(j.logBetaQuantile(0.025)), Math.exp(j.logBetaQuantile(0.975))],
      edges: j.edges(this.settings.tolerance),
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
    if (this.settings.beta_range) s.beta_range = this.settings.beta_range;
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

  /* Points (R, P) of the level curves G = level of each level: for each recall, the precision by bisection (G rises
     with P). gAt's doubles, with the terms of (log beta, rho) and of each recall computed once instead of at each
     of the 60 steps. */
  function levelCurves(lb, rho, levels) {
    var beta = Math.exp(lb), x = rho * lb, w = 1 / (1 + Math.exp(-x)), wc = 1 / (1 + Math.exp(x)), e = rho + 1;
    var curves = levels.map(function () { return []; });
    function g(p, r, lr, emr) {  // gAt(lb, rho, p, r)
      if (rho === 0) return Math.exp(Math.log((beta * p + r) / (1 + beta)));
      var lp = Math.log(p);
      if (e === 0) return Math.exp(w * lp + wc * lr);
      return Math.exp(Math.log1p(w * Math.expm1(e * lp) + wc * emr) / e);
    }
    for (var k = 1; k <= 120; k++) {
      var r = k / 120, lr = Math.log(r), emr = Math.expm1(e * lr), top = g(1, r, lr, emr), bottom = null;
      for (var i = 0; i < levels.length; i++) {
        var level = levels[i], pts = curves[i];
        if (top < level) continue;
        var lo = 1e-9, hi = 1;
        if (bottom === null) bottom = g(lo, r, lr, emr);
        if (bottom >= level) { pts.push([r, 0]); continue; }
        for (var it = 0; it < 60; it++) { var mid = (lo + hi) / 2; if (g(mid, r, lr, emr) >= level) hi = mid; else lo = mid; }
        pts.push([r, hi]);
      }
    }
    return curves;
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
    levelCurves(lb, rho, [at * 0.8, at * 0.9, at, Math.min(at * 1.1, 0.999)]).forEach(function (pts, i) {
      polyline(pts, { stroke: i === 2 ? "#d62728" : "#f4a6a6", "stroke-width": i === 2 ? 2 : 1,
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
                              Math.min(1, q.recall + LOCAL_DELTA)));
      opts.appendChild(option("precision", "A gain in precision (fewer false alarms), e.g. to",
                              Math.min(1, q.precision + LOCAL_DELTA), q.recall));
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

  if (typeof document === "undefined") {  // outside a page (node): the engine alone, for tests
    if (typeof module !== "undefined" && module.exports) module.exports = { Session: Session };
  } else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
