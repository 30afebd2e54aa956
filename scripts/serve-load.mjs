// A bounded load test of `alea serve`: REQUESTS posts of one battle file from CLIENTS concurrent
// clients (each on its own keep-alive connection); prints p50/p95/p99 latency and fails on any
// error or on an answer that differs from the first.
//   node scripts/serve-load.mjs http://127.0.0.1:8080 experiments/battles/field.toml [requests] [clients]
import { readFileSync } from "node:fs";
import http from "node:http";

const [base, file, requests = "2000", clients = "8"] = process.argv.slice(2);
const body = readFileSync(file);
const total = Number(requests), width = Number(clients);
const url = new URL("/api/odds", base);

function post(agent) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.request(url, { method: "POST", agent, headers: { "Content-Type": "application/toml", "Content-Length": body.length } }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString(), ms: Number(process.hrtime.bigint() - started) / 1e6 }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

let next = 0, errors = 0, first = null;
const latencies = [];
const started = Date.now();
await Promise.all(Array.from({ length: width }, async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  while (next < total) {
    next++;
    const r = await post(agent);
    latencies.push(r.ms);
    if (first === null) first = r.text;
    if (r.status !== 200 || r.text !== first) errors++;
  }
  agent.destroy();
}));
const seconds = (Date.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(2);
console.log(`${latencies.length} requests, ${width} clients, ${seconds.toFixed(2)} s (${(latencies.length / seconds).toFixed(0)}/s): ` +
  `p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, p99 ${q(0.99)} ms, max ${latencies[latencies.length - 1].toFixed(2)} ms, errors ${errors}`);
console.log(`method: ${JSON.parse(first).method}`);
process.exit(errors ? 1 : 0);
