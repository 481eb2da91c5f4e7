// Scripted sessions through the page's engine (an elicit.js given on the command line), for
// benchmarks/check_elicit_js_identical.py: reads a JSON list of jobs {data: {settings, curve},
// stakeholder: {...}} on stdin and writes, for every step of every session, one line of JSON with
// everything the page reads (the next question, the full result, the transcript's steps) and the
// engine's inner state as exact doubles (hashes of the local and joint posterior weights, the
// information gains of the candidate pairs, with --gains).
//
// The stakeholders answer from their own G(beta, rho) (written here, not the engine's), without
// noise, with logistic noise from a seeded generator, at random (contradictions), always for recall,
// or from a fixed list of answers (the browser tests' scenarios).
"use strict";
const crypto = require("crypto");
const engine = require(require("path").resolve(process.argv[2]));
const GAINS = process.argv[3] === "--gains";  // also the information gains (computes each pairwise question twice)

function rng(seed) {  // mulberry32
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// G(beta, rho) = (w P^(rho+1) + (1 - w) R^(rho+1))^(1/(rho+1)), w = beta^rho / (1 + beta^rho) written
// directly (a weighted power mean of precision and recall).
function value(beta, rho, p, r) {
  const e = rho + 1, w = Math.pow(beta, rho) / (1 + Math.pow(beta, rho));
  if (Math.abs(e) < 1e-12) return Math.exp(w * Math.log(p) + (1 - w) * Math.log(r));
  return Math.pow(w * Math.pow(p, e) + (1 - w) * Math.pow(r, e), 1 / e);
}

function stakeholder(spec) {
  const draw = rng(spec.seed || 1);
  let k = 0;
  const pick = (d) => {
    if (spec.kind === "random") return draw() < 0.5;
    if (spec.kind === "logistic") return draw() < 1 / (1 + Math.exp(-Math.max(Math.min(spec.lam * d, 700), -700)));
    return d > 0;
  };
  return function (q) {
    if (spec.kind === "answers") return k < spec.answers.length ? spec.answers[k++] : null;
    if (spec.kind === "recall") return q.kind === "local" ? "recall" : (q.a[1] > q.b[1] ? "a" : "b");
    if (q.kind === "local") {
      const h = 1e-6 * Math.min(q.precision, q.recall);
      const dr = (value(spec.beta, spec.rho, q.precision, q.recall + h) - value(spec.beta, spec.rho, q.precision, q.recall - h)) / (2 * h);
      const dp = (value(spec.beta, spec.rho, q.precision + h, q.recall) - value(spec.beta, spec.rho, q.precision - h, q.recall)) / (2 * h);
      return pick(0.05 * (dr - dp)) ? "recall" : "precision";
    }
    return pick(value(spec.beta, spec.rho, q.a[0], q.a[1]) - value(spec.beta, spec.rho, q.b[0], q.b[1])) ? "a" : "b";
  };
}

function hash(array) {
  return crypto.createHash("sha256").update(Buffer.from(array.buffer, array.byteOffset, array.byteLength)).digest("hex");
}

function replacer(key, v) {  // exact doubles, and the non-finite ones by name
  if (typeof v === "number" && !Number.isFinite(v)) return String(v);
  return v;
}

let input = "";
process.stdin.on("data", (c) => { input += c; });
process.stdin.on("end", () => {
  const jobs = JSON.parse(input), out = [];
  jobs.forEach((job, n) => {
    const session = new engine.Session(job.data), answer = stakeholder(job.stakeholder);
    for (let k = 0; k < 200; k++) {
      const q = session.nextQuestion(), res = session.result();
      const step = { session: n, k: k, asked: q, result: res, transcript: session.transcript().steps,
                     local: hash(session.local.weights()), joint: hash(session.joint.weights()) };
      if (GAINS && q !== null && q.kind === "pairwise") step.gain = hash(session.joint.informationGain().gain);
      out.push(JSON.stringify(step, replacer));
      if (q === null) break;
      const a = answer(q);
      if (a === null) break;
      session.answer(a);
    }
  });
  process.stdout.write(out.join("\n") + "\n");
});
