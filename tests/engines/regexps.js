// Runs the exported ECMAScript patterns on strings, for tests/engines/test_node.py.
// stdin: {"schemes": {scheme: pattern}, "any": pattern, "items": [[scheme, text], ...],
//         "groups": {scheme: [name, ...]}}
// stdout: one [schemeMatched, anyMatched, {group: [start, end]}] per item, as JSON.
"use strict";
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const compiled = {};
for (const [scheme, pattern] of Object.entries(input.schemes)) {
  compiled[scheme] = new RegExp(pattern, "d");
}
const any = new RegExp(input.any);
const out = input.items.map(([scheme, text]) => {
  const match = compiled[scheme].exec(text);
  const spans = {};
  if (match) {
    for (const name of input.groups[scheme]) {
      const where = match.indices.groups[name];
      if (where !== undefined) spans[name] = where;
    }
  }
  return [match !== null, any.test(text), spans];
});
process.stdout.write(JSON.stringify(out));
