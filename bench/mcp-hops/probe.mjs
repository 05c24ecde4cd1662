// Preloaded (`node --import ./probe.mjs`) into each process of an MCP round trip (bench/mcp-hops/run.mjs):
// stamps every socket/pipe read ('data') and write with the shared monotonic clock (process.hrtime, the
// same CLOCK_MONOTONIC in every process) and the process's CPU time so far, and writes them to
// $HOPS_DIR/ROLE-PID.json at exit. ROLE: $HOPS_ROLE. Reads and writes are told apart as the process's
// stdio or a socket. Only for the bench: nothing in src/ knows of it.
import net from 'node:net';
import { writeFileSync } from 'node:fs';

const dir = process.env.HOPS_DIR;
// The real engine a front starts (`simgrep serve --mcp`) inherits the front's flags and environment.
const role = process.argv.includes('serve') ? (process.env.HOPS_ROLE ?? 'proc').replace('front', 'engine') : process.env.HOPS_ROLE ?? 'proc';
export const stamps = [];
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
export function stamp(kind, bytes = 0) { stamps.push([Number(process.hrtime.bigint()) / 1e6, cpuMs(), kind, bytes]); }
const where = (s) => (s === process.stdin || s === process.stdout ? 'stdio' : 'sock');
const write = net.Socket.prototype.write;
net.Socket.prototype.write = function (chunk, ...rest) {
  stamp(`${where(this)}-out`, typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length);
  return write.call(this, chunk, ...rest);
};
const emit = net.Socket.prototype.emit;
net.Socket.prototype.emit = function (ev, ...args) {
  if (ev === 'data') stamp(`${where(this)}-in`, args[0]?.length ?? 0);
  return emit.call(this, ev, ...args);
};
if (dir && role !== "client") process.on("exit", () => writeFileSync(`${dir}/${role}-${process.pid}.json`, JSON.stringify(stamps)));
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => process.exit(0));
