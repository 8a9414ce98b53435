// HAProxy of the bench's own (Debian's `haproxy`) in front of the instances: leastconn, a
// `GET /health` check every 2 s that ejects a server after 3 failures (2 s each at most) or at its
// first refused connection, and takes it back after 2 successes, WebSocket tunnels kept for the run. Every answer says which server
// gave it (`X-Served-By`), so a subscriber and a writer know their instance. The stats socket is
// read for each server's state and its UP→DOWN transitions (`chkdown`): an ejection.
// One HAProxy process holds at most MAX_CONNECTIONS proxied connections: each takes two file
// descriptors, and no process here may have more than 20,000 (the hard limit, which root cannot
// raise in this sandbox). More subscribers than that go through several HAProxy processes, as
// they would through several load balancer nodes.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";

export const haproxyMissing = () => (spawnSync("haproxy", ["-v"]).error ? "haproxy is not installed" : null);

export interface Backend {
  name: string;
  port: number;
  /** Where its /health is checked (the instance's HEALTH_PORT). */
  checkPort: number;
}

export interface ServerStat {
  name: string;
  status: string;
  /** UP→DOWN transitions since HAProxy started. */
  checkDowns: number;
  checkFailures: number;
  /** Seconds spent DOWN. */
  downtime: number;
  currentSessions: number;
  maxSessions: number;
  totalSessions: number;
  /** Connections refused by the server, or answers it failed to give. */
  connectionErrors: number;
  responseErrors: number;
  /** Why the last check passed or failed (HAProxy's check_status and last_chk, e.g. L4TOUT, L7STS). */
  lastCheck: string;
}

export const MAX_CONNECTIONS = 9_900;

export function haproxyConfig(socket: string, port: number, statsPort: number, backends: Backend[]) {
  return [
    "global",
    `  maxconn ${MAX_CONNECTIONS}`,
    `  stats socket ${socket} mode 600 level admin`,
    "defaults",
    "  mode http",
    "  timeout connect 5s",
    "  timeout client 120s",
    "  timeout server 120s",
    "  timeout tunnel 1h",
    "  timeout check 2s",
    // A connection refused by a server (its instance died) is tried again on another one at once,
    // not on the same server after HAProxy's 1 s turn-around.
    "  option redispatch 1",
    "  retries 3",
    "frontend dialogql",
    `  bind 127.0.0.1:${port}`,
    `  maxconn ${MAX_CONNECTIONS}`,
    "  default_backend instances",
    "backend instances",
    "  balance leastconn",
    "  option httpchk GET /health",
    "  http-check expect status 200",
    // A server that refuses a connection (its process is gone) is marked down at once instead of
    // after three failed checks (6 s): the subscribers of a killed instance reconnect to the others.
    "  default-server inter 2s fall 3 rise 2 maxconn 30000 observe layer4 error-limit 1 on-error mark-down",
    "  http-response set-header X-Served-By %[srv_name]",
    ...backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check port ${b.checkPort}`),
    "listen stats",
    `  bind 127.0.0.1:${statsPort}`,
    "  stats enable",
    "  stats uri /",
    "",
  ].join("\n");
}

export async function startHaproxy(directory: string, port: number, statsPort: number, backends: Backend[]) {
  const file = path.join(directory, `haproxy-${port}.cfg`);
  const socket = path.join(directory, `haproxy-${port}.sock`);
  writeFileSync(file, haproxyConfig(socket, port, statsPort, backends));
  const check = spawnSync("haproxy", ["-c", "-f", file], { encoding: "utf8" });
  if (check.status !== 0) throw new Error(`haproxy refused its configuration:\n${check.stdout}${check.stderr}`);
  const child: ChildProcess = spawn("haproxy", ["-db", "-f", file], { stdio: ["ignore", "ignore", "pipe"] });
  let errors = "";
  child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  const stats = () => readStats(socket);
  // Up once every server has passed its checks.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}):\n${errors}`);
    const servers = await stats().catch(() => []);
    if (servers.length === backends.length && servers.every((s) => s.status === "UP")) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`haproxy: not every server up after 60 s: ${JSON.stringify(servers)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    name: `haproxy:${port}`,
    url: `http://127.0.0.1:${port}`,
    stats,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** `show stat` on the admin socket: the servers of the backend. */
export function readStats(socketPath: string): Promise<ServerStat[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let text = "";
    socket.setTimeout(5_000, () => socket.destroy(new Error("haproxy stats socket: no answer in 5 s")));
    socket.on("connect", () => socket.write("show stat\n"));
    socket.on("data", (chunk) => (text += chunk.toString()));
    socket.on("error", reject);
    socket.on("close", () => resolve(parseStats(text)));
  });
}

function parseStats(csv: string): ServerStat[] {
  const [header, ...rows] = csv.trim().split("\n");
  if (!header?.startsWith("# ")) return [];
  const names = header.slice(2).split(",");
  const column = (row: string[], name: string) => row[names.indexOf(name)] ?? "";
  return rows
    .map((line) => line.split(","))
    .filter((row) => column(row, "pxname") === "instances" && !["FRONTEND", "BACKEND"].includes(column(row, "svname")))
    .map((row) => ({
      name: column(row, "svname"),
      status: column(row, "status"),
      checkDowns: Number(column(row, "chkdown")),
      checkFailures: Number(column(row, "chkfail")),
      downtime: Number(column(row, "downtime")),
      currentSessions: Number(column(row, "scur")),
      maxSessions: Number(column(row, "smax")),
      totalSessions: Number(column(row, "stot")),
      connectionErrors: Number(column(row, "econ")),
      responseErrors: Number(column(row, "eresp")),
      lastCheck: `${column(row, "check_status")} ${column(row, "check_duration")}ms ${column(row, "last_chk")}`.trim(),
    }));
}

/** Reads the stats every second and keeps each change of a server's status, with its time. */
export function watchStatuses(stats: () => Promise<ServerStat[]>, startedAt: number) {
  const last = new Map<string, string>();
  const changes: { atS: number; server: string; from: string; to: string; check: string }[] = [];
  const timer = setInterval(() => {
    void stats()
      .then((servers) => {
        for (const s of servers) {
          const before = last.get(s.name);
          if (before !== undefined && before !== s.status) {
            changes.push({
              atS: Number(((Date.now() - startedAt) / 1000).toFixed(1)),
              server: s.name,
              from: before,
              to: s.status,
              check: s.lastCheck,
            });
          }
          last.set(s.name, s.status);
        }
      })
      .catch(() => undefined);
  }, 1_000);
  return {
    changes,
    stop: () => clearInterval(timer),
  };
}
