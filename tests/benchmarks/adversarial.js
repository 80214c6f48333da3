// Times node's RegExp on the exported ECMAScript patterns, for bench_engines.py.
// node adversarial.js FILE; FILE and output as for Adversarial.java ("RangeError"
// in place of the time when V8's backtracking stack runs out).
"use strict";
const lines = require("fs").readFileSync(process.argv[2], "utf8").split("\n").filter(Boolean);
for (const line of lines) {
  const [label, scheme, any, ...rest] = line.split("\t");
  const input = rest.join("\t");
  const a = new RegExp(scheme), b = new RegExp(any);
  let best = Infinity;
  try {
    for (let run = 0; run < 3; run++) {
      const start = process.hrtime.bigint();
      a.test(input);
      b.test(input);
      best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
    }
    console.log(`${label}\t${best}`);
  } catch (error) {
    // V8 throws RangeError when the matcher's backtracking stack runs out.
    if (!(error instanceof RangeError)) throw error;
    console.log(`${label}\tRangeError`);
  }
}
