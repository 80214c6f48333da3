"use strict";
// Random inputs of one repeated unit (1 to 4 characters of URL syntax) after
// each scheme's prefix, with a random last character: each timed at 2*10^4 and
// 2*10^5 repetitions in the scheme's ECMAScript pattern and in `any`; prints the
// worst growth (10x the input) of the cases whose smaller input takes 0.2 ms or
// more (below that, timer noise), and any case over 200 ms.
//   rfc1738 grammar export --dialect ecmascript --format json > e.json
//   node tests/benchmarks/node_growth.js e.json [SECONDS]
const e = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"));
const any = new RegExp(e.any.pattern || e.any);
const prefixes = {http:"http://", ftp:"ftp://", gopher:"gopher://h/1", mailto:"mailto:", news:"news:", nntp:"nntp://h/", telnet:"telnet://", wais:"wais://h/", file:"file://", prospero:"prospero://h/", generic:"x-y:"};
const alphabet = ["a","1",".","-","%","%4","%41","%09",":","@","/",";","=","?","&","+","*","~"," ","A","_",",","!"];
let seed = 12345; const rnd = n => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
function time(re, s) { let best = Infinity; for (let r = 0; r < 3; r++) { const t = process.hrtime.bigint(); re.test(s); best = Math.min(best, Number(process.hrtime.bigint() - t) / 1e6); } return best; }
let worst = 0, worstCase = "";
const t0 = Date.now();
let cases = 0;
while (Date.now() - t0 < Number(process.argv[3] || 60) * 1000) {
  const schemes = Object.keys(prefixes); const scheme = schemes[rnd(schemes.length)];
  let unit = ""; const len = 1 + rnd(4); for (let i = 0; i < len; i++) unit += alphabet[rnd(alphabet.length)];
  const end = alphabet[rnd(alphabet.length)];
  const re = new RegExp(e.schemes[scheme].pattern);
  const small = prefixes[scheme] + unit.repeat(20000) + end, big = prefixes[scheme] + unit.repeat(200000) + end;
  for (const [name, r] of [["scheme", re], ["any", any]]) {
    let a, b;
    // One match first: V8 runs a new RegExp's first matches in its interpreter.
    try { r.test(small); a = time(r, small); b = time(r, big); } catch (err) { continue; }
    const g = b / a;
    if (a >= 0.2 && g > worst) { worst = g; worstCase = `${name} ${scheme} unit=${JSON.stringify(unit)} end=${JSON.stringify(end)} ${a.toFixed(2)}ms -> ${b.toFixed(2)}ms`; }
    if (b > 200) console.log("SLOW", name, scheme, JSON.stringify(unit), b);
  }
  cases++;
}
console.log("cases", cases, "worst growth", worst.toFixed(1), worstCase);
