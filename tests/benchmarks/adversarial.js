// Times node's RegExp on the exported ECMAScript patterns, for bench_engines.py.
// node adversarial.js FILE; FILE and output as for Adversarial.java.
"use strict";
const lines = require("fs").readFileSync(process.argv[2], "utf8").split("\n").filter(Boolean);
for (const line of lines) {
  const [label, scheme, any, ...rest] = line.split("\t");
  const input = rest.join("\t");
  const a = new RegExp(scheme), b = new RegExp(any);
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const start = process.hrtime.bigint();
    a.test(input);
    b.test(input);
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
  }
  console.log(`${label}\t${best}`);
}
