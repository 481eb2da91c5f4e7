// Runs the page's engine (src/isometrics/report/static/elicit.js) under node on a transcript's
// answers: reads {"data": {settings, curve}, "answers": [...]} on stdin, writes the trace as JSON.
const path = require("path");
const engine = require(path.resolve(__dirname, "../../src/isometrics/report/static/elicit.js"));
let input = "";
process.stdin.on("data", (c) => { input += c; });
process.stdin.on("end", () => {
  const job = JSON.parse(input);
  const session = new engine.Session(job.data);
  const trace = [];
  for (let k = 0; k <= job.answers.length; k++) {
    const q = session.nextQuestion();
    const est = session.joint.estimate();
    trace.push({ asked: q, stop_reason: session.stop || "", log_beta: est[0], rho: est[1],
                 feasible_fraction: session.joint.feasibleFraction() });
    if (k < job.answers.length) session.answer(job.answers[k]);
  }
  const res = session.result();
  res.beta_bounds = res.beta_bounds.map((x) => (x === Infinity ? "inf" : x));
  process.stdout.write(JSON.stringify({ trace: trace, result: res }));
});
