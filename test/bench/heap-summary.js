// `node test/bench/heap-summary.js FILE.heapsnapshot [N]`: the N (default 15) constructors with
// the most retained memory in a V8 heap snapshot (retained: what would be freed with the
// objects, from the dominator tree), with their count and self size, and the heap's total.
// Written for the bench's `create-memory` snapshots (BENCH_HEAP_SNAPSHOT_DIR).
import { readFileSync } from 'node:fs';

const [file, n = '15'] = process.argv.slice(2);
if (!file) throw new Error('usage: node test/bench/heap-summary.js FILE.heapsnapshot [N]');
const snap = JSON.parse(readFileSync(file, 'utf8'));
const {
  node_fields: nf,
  edge_fields: ef,
  node_types: [nodeTypes],
  edge_types: [edgeTypes],
} = snap.snapshot.meta;
const NF = nf.length;
const EF = ef.length;
const [iType, iName, iSelf, iEdges] = ['type', 'name', 'self_size', 'edge_count'].map((f) => nf.indexOf(f));
const [eType, eTo] = ['type', 'to_node'].map((f) => ef.indexOf(f));
const { nodes, edges, strings } = snap;
const count = nodes.length / NF;

// Edges of each node (first edge index), and predecessors for the dominator tree.
const firstEdge = new Uint32Array(count + 1);
for (let i = 0, e = 0; i < count; i++) {
  firstEdge[i] = e;
  e += nodes[i * NF + iEdges] * EF;
}
firstEdge[count] = edges.length;
const weak = edgeTypes.indexOf('weak');
const shortcut = edgeTypes.indexOf('shortcut');
const children = (i, visit) => {
  for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += EF) {
    const t = edges[e + eType];
    if (t === weak || t === shortcut) continue;
    visit(edges[e + eTo] / NF);
  }
};

// Post-order from the root (node 0), iteratively.
const order = new Int32Array(count).fill(-1);
const post = [];
const visited = new Uint8Array(count);
const stack = [0];
const cursor = new Uint32Array(count);
visited[0] = 1;
for (let i = 0; i < count; i++) cursor[i] = firstEdge[i];
while (stack.length) {
  const v = stack[stack.length - 1];
  let pushed = false;
  while (cursor[v] < firstEdge[v + 1]) {
    const e = cursor[v];
    cursor[v] += EF;
    const t = edges[e + eType];
    if (t === weak || t === shortcut) continue;
    const w = edges[e + eTo] / NF;
    if (!visited[w]) {
      visited[w] = 1;
      stack.push(w);
      pushed = true;
      break;
    }
  }
  if (!pushed) {
    order[v] = post.length;
    post.push(v);
    stack.pop();
  }
}
// Predecessors of reachable nodes.
const preds = Array.from({ length: count }, () => []);
for (const v of post) children(v, (w) => visited[w] && preds[w].push(v));
// Cooper-Harvey-Kennedy iterative dominators over the post order.
const idom = new Int32Array(count).fill(-1);
idom[0] = 0;
const intersect = (a, b) => {
  while (a !== b) {
    while (order[a] < order[b]) a = idom[a];
    while (order[b] < order[a]) b = idom[b];
  }
  return a;
};
for (let changed = true; changed;) {
  changed = false;
  for (let k = post.length - 1; k >= 0; k--) {
    const v = post[k];
    if (v === 0) continue;
    let d = -1;
    for (const p of preds[v]) if (idom[p] !== -1) d = d === -1 ? p : intersect(p, d);
    if (d !== -1 && idom[v] !== d) {
      idom[v] = d;
      changed = true;
    }
  }
}
const retained = new Float64Array(count);
for (const v of post) retained[v] += nodes[v * NF + iSelf];
for (const v of post) if (v !== 0 && idom[v] >= 0) retained[idom[v]] += retained[v];

// Per constructor: a node's retained size counts once, unless a node of the same name dominates it.
const nameOf = (i) => {
  const type = nodeTypes[nodes[i * NF + iType]];
  const name = strings[nodes[i * NF + iName]];
  return type === 'object' || type === 'closure' ? name : `(${type})`;
};
const rows = new Map();
for (const v of post) {
  const name = nameOf(v);
  const row = rows.get(name) ?? { count: 0, self: 0, retained: 0 };
  row.count++;
  row.self += nodes[v * NF + iSelf];
  let d = idom[v];
  let outer = false;
  while (d > 0) {
    if (nameOf(d) === name) {
      outer = true;
      break;
    }
    d = idom[d];
  }
  if (!outer) row.retained += retained[v];
  rows.set(name, row);
}
const mb = (b) => `${(b / 1048576).toFixed(1)} MB`;
console.log(`${file}: ${count.toLocaleString('en')} nodes, heap ${mb(retained[0])}`);
console.log(`  ${'constructor'.padEnd(40)} ${'count'.padStart(10)} ${'self'.padStart(10)} ${'retained'.padStart(10)}`);
for (const [name, r] of [...rows]
  .filter(([k]) => k !== '(synthetic)')
  .sort((a, b) => b[1].retained - a[1].retained)
  .slice(0, Number(n))) {
  console.log(
    `  ${name.slice(0, 40).padEnd(40)} ${r.count.toLocaleString('en').padStart(10)} ${mb(r.self).padStart(10)} ${mb(r.retained).padStart(10)}`,
  );
}
