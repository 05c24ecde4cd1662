const n = 25000, dim = 256;
const v = new Float32Array(n * dim).map(() => Math.random() - 0.5);
const q = new Float32Array(dim).map(() => Math.random() - 0.5);
const out = new Float64Array(n);
function a() { for (let c = 0; c < n; c++) { const base = c * dim; let x = 0, y = 0, d = 0; for (; d + 3 < dim; d += 4) { x += v[base + d] * q[d] + v[base + d + 2] * q[d + 2]; y += v[base + d + 1] * q[d + 1] + v[base + d + 3] * q[d + 3]; } out[c] = x + y; } }
function b() { for (let c = 0; c < n; c++) { let base = c * dim; let x0 = 0, x1 = 0, x2 = 0, x3 = 0; for (let d = 0; d < dim; d += 8, base += 8) { x0 += v[base] * q[d] + v[base + 4] * q[d + 4]; x1 += v[base + 1] * q[d + 1] + v[base + 5] * q[d + 5]; x2 += v[base + 2] * q[d + 2] + v[base + 6] * q[d + 6]; x3 += v[base + 3] * q[d + 3] + v[base + 7] * q[d + 7]; } out[c] = (x0 + x1) + (x2 + x3); } }
function c2() { const qq = Array.from(q); for (let c = 0; c < n; c++) { const row = v.subarray(c * dim, c * dim + dim); let x = 0; for (let d = 0; d < dim; d++) x += row[d] * qq[d]; out[c] = x; } }
for (const [name, f] of [['a', a], ['b', b], ['c', c2], ['a', a], ['b', b]]) { const t = performance.now(); for (let r = 0; r < 10; r++) f(); console.log(name, ((performance.now() - t) / 10).toFixed(2)); }
