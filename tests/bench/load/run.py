"""The load test of the production topology (`scripts/loadtest`, `make loadtest`).

    python -m tests.bench.load.run [--seconds 45] [--viewers 1000 5000 10000] [--users 40] [--web-nodes 2]
                                   [--official-nodes 1] [--fanout nchan] [--viewer-processes N]

`scripts/topology start` once (its own database, Redis prefix, folder and ports: var/loadtest/; 2 public web
nodes, 1 officials' node, the live fan-out through nginx's nchan), then for each viewer count: that many scoreboard
viewers (WebSocket clients, tests/bench/scoreboard_viewers.py, spread over several processes) on the 4 live games
through the proxy, then locust headless for ``--seconds`` (tests/bench/load/locustfile.py: public pages, the API,
and one official per game entering one event a second), then the viewers leave. Each configuration scores 4 fresh
games of one world (tests/bench/load/world.py) built after the start.

Every figure comes from this run: locust's requests (each one's kind, response time and outcome, kept by the
locustfile), the viewers' deltas, and the CPU time each group of processes used during the run (/proc). The
table is printed and written to var/loadtest/results.md (and results.json).
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import resource
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
OUT = ROOT / "var" / "loadtest"
HERE = Path(__file__).resolve().parent
CHECKOUT_ID = __import__("hashlib").md5(str(ROOT).encode()).hexdigest()[:8]
PORT = int(os.environ.get("LOADTEST_PORT", "8090"))
DATABASE_URL = os.environ.get(
    "LOADTEST_DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/portal_loadtest_{CHECKOUT_ID}"
)
GAMES = 4
TICKS = os.sysconf("SC_CLK_TCK")


def topology_env(args) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "TOPOLOGY_", "LIVE_"))}
    env.update(
        PY=sys.executable,
        TOPOLOGY_DIR=str(OUT / "topology"),
        TOPOLOGY_PORT=str(PORT),
        TOPOLOGY_WEB_NODES=str(args.web_nodes),
        TOPOLOGY_OFFICIAL_NODES=str(args.official_nodes),
        TOPOLOGY_LIVE_FANOUT=args.fanout,
        TOPOLOGY_OFFICIALS_NICE=str(args.officials_nice),
        TOPOLOGY_NGINX_NICE=str(args.officials_nice),
        TOPOLOGY_DATABASE_URL=DATABASE_URL,
        TOPOLOGY_REDIS_URL=os.environ.get("LOADTEST_REDIS_URL", "redis://127.0.0.1:6379/0"),
        TOPOLOGY_REDIS_KEY_PREFIX=f"portal_loadtest_{CHECKOUT_ID}:",
    )
    return env


def topology(command: str, args) -> None:
    args_ = [str(ROOT / "scripts" / "topology"), command]
    done = subprocess.run(args_, cwd=ROOT, env=topology_env(args), capture_output=True, text=True, timeout=400)
    print(done.stdout, end="")
    if done.returncode != 0:
        raise SystemExit(f"scripts/topology {command} failed:\n{done.stdout}\n{done.stderr}")


def fresh_database() -> None:
    """Drop the load test's own database (never another): every run starts from an empty world."""
    import psycopg
    from psycopg import sql

    name = DATABASE_URL.rsplit("/", 1)[1]
    assert name.startswith("portal_loadtest"), name
    with psycopg.connect(DATABASE_URL.rsplit("/", 1)[0] + "/postgres", autocommit=True) as connection:
        connection.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))


def build_world(games: int) -> dict:
    path = OUT / "world.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        DATABASE_URL=DATABASE_URL,
        DJANGO_SETTINGS_MODULE="portal.settings",
        DJANGO_LOG_LEVEL="WARNING",  # not django-axes' line for every session written
        DJANGO_SECRET_KEY=(OUT / "topology" / "secret-key").read_text().strip(),
    )
    for name in ("REDIS_URL", "REDIS_KEY_PREFIX", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"):
        env.pop(name, None)
    subprocess.run([sys.executable, "-m", "tests.bench.load.world", str(path), str(games)], cwd=ROOT, env=env,
                   check=True, timeout=300)  # fmt: skip
    return json.loads(path.read_text())


# --- CPU time per group of processes (/proc) ----------------------------------------------------------------------


def _processes() -> dict[int, tuple[str, int, float]]:
    """Every process: (command name, parent, CPU seconds so far)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        found[int(entry.name)] = (name, int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS)
    return found


def cpu_by_group(groups: dict[str, list[int]]) -> dict[str, float]:
    """CPU seconds used so far by each group: its processes and their children; PostgreSQL and Redis by name."""
    procs = _processes()
    children: dict[int, list[int]] = {}
    for pid, (_, parent, _) in procs.items():
        children.setdefault(parent, []).append(pid)
    totals = {}
    for group, roots in groups.items():
        seen, stack = set(), list(roots)
        while stack:
            pid = stack.pop()
            if pid in procs and pid not in seen:
                seen.add(pid)
                stack += children.get(pid, [])
        totals[group] = sum(procs[p][2] for p in seen)
    totals["PostgreSQL (every database)"] = sum(cpu for name, _, cpu in procs.values() if name.startswith("postgres"))
    totals["Redis"] = sum(cpu for name, _, cpu in procs.values() if name.startswith("redis-server"))
    # The machine's busy time (/proc/stat: every state but idle and iowait), whoever used it.
    fields = [int(n) for n in Path("/proc/stat").read_text().splitlines()[0].split()[1:8]]
    totals["machine busy"] = (sum(fields) - fields[3] - fields[4]) / TICKS
    return totals


# --- the viewers ------------------------------------------------------------------------------------------------


class Viewers:
    """``count`` viewers in ``processes`` client processes (asyncio each), spread over the URLs."""

    def __init__(self, urls: list[str], count: int, folder: Path, seconds: float, processes: int, first: str,
                 nice: int = 0):  # fmt: skip
        self.outs, self.processes = [], []
        self.lines: queue.Queue[str] = queue.Queue()
        shares = [count // processes + (1 if n < count % processes else 0) for n in range(processes)]
        for n, share in enumerate(shares):
            out = folder / f"viewers-{n + 1}.json"
            # Each process starts at another game, so that the games' viewers stay even.
            rotated = urls[n % len(urls) :] + urls[: n % len(urls)]
            command = [sys.executable, str(ROOT / "tests" / "bench" / "scoreboard_viewers.py"), "--transport", "ws",
                       "--count", str(share), "--out", str(out), "--seconds", str(seconds), "--first", first,
                       *rotated]  # fmt: skip
            if nice:
                command = ["nice", "-n", str(nice), *command]
            process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            self.outs.append(out)
            self.processes.append(process)
            threading.Thread(target=self._read, args=(process,), daemon=True).start()

    def _read(self, process):
        for line in process.stdout:
            self.lines.put(line)
        self.lines.put("")

    def ready(self, timeout: float) -> float:
        started = time.monotonic()
        deadline = started + timeout
        waiting = len(self.processes)
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=1)
            except queue.Empty:
                continue
            if not line:
                raise SystemExit("a viewers' process stopped before every viewer was connected")
            if line.startswith("READY"):
                waiting -= 1
                if not waiting:
                    return time.monotonic() - started
        raise SystemExit("the viewers did not connect in time")

    def drain(self, expected: int, quiet: float = 5.0, limit: float = 60.0) -> float:
        """Wait until the viewers hold ``expected`` deltas, or none came for ``quiet`` s (at most ``limit`` s)."""
        started = last_change = time.monotonic()
        last = -1
        while time.monotonic() - started < limit:
            for process in self.processes:
                process.stdin.write("COUNT\n")
                process.stdin.flush()
            counts, wanted = [], len(self.processes)
            while len(counts) < wanted:
                line = self.lines.get(timeout=30)
                if line.startswith("COUNT"):
                    counts.append(int(line.split()[1]))
            total = sum(counts)
            if total >= expected:
                break
            if total != last:
                last, last_change = total, time.monotonic()
            elif time.monotonic() - last_change > quiet:
                break
            time.sleep(0.5)
        return time.monotonic() - started

    def finish(self) -> dict:
        for process in self.processes:
            process.stdin.write("DONE\n")
            process.stdin.flush()
        seen = {"viewers": 0, "by_game": {}, "games": {}, "delays": [], "cpu_s": 0.0, "heartbeats": 0}
        for process, out in zip(self.processes, self.outs, strict=True):
            process.wait(timeout=120)
            part = json.loads(out.read_text())
            seen["viewers"] += part["viewers"]
            seen["delays"] += part["delays"]
            seen["cpu_s"] += part["cpu_s"]
            seen["heartbeats"] += part["heartbeats"]
            for key in ("by_game", "games"):
                for game, n in part[key].items():
                    seen[key][int(game)] = seen[key].get(int(game), 0) + n
        return seen


# --- one configuration ------------------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(share * len(values)))]


def run_configuration(viewers: int, world: dict, args, run_index: int) -> dict:
    games = world["games"][run_index * GAMES : (run_index + 1) * GAMES]
    base = f"http://127.0.0.1:{PORT}"
    folder = OUT / f"{viewers}-viewers"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    if args.fanout == "nchan":
        urls = [f"ws://127.0.0.1:{PORT}/live/nchan/games/{g['game']}/" for g in games]
    else:
        urls = [f"ws://127.0.0.1:{PORT}/live/games/{g['game']}/" for g in games]
    processes = args.viewer_processes or max(1, -(-viewers // 2500))
    crowd = Viewers(urls, viewers, folder, seconds=args.seconds + 400, processes=processes,
                    first="none" if args.fanout == "nchan" else "snapshot", nice=args.viewers_nice)  # fmt: skip
    connect_s = crowd.ready(timeout=300)
    pids = {path.stem: int(path.read_text()) for path in (OUT / "topology" / "pids").glob("*.pid")}
    groups = {
        "public web nodes": [p for n, p in pids.items() if n.startswith("web")],
        "officials' node": [p for n, p in pids.items() if n.startswith("officials")],
        "Celery workers and beat": [p for n, p in pids.items() if n.startswith(("worker", "beat"))],
        "nginx (proxy and nchan)": [pids["nginx"]],
        "scoreboard viewers (load)": [process.pid for process in crowd.processes],
    }
    env = dict(os.environ, LOAD_WORLD=str(OUT / "world.json"), LOAD_GAMES_FROM=str(run_index * GAMES),
               LOAD_GAMES=str(GAMES), LOAD_SAMPLES=str(folder / "samples"))  # fmt: skip
    command = [sys.executable, "-m", "locust", "-f", str(HERE / "locustfile.py"), "--headless",
               "-u", str(args.users + GAMES), "-r", str(args.users + GAMES), "-t", f"{args.seconds}s",
               "--host", base, "--only-summary", "--stop-timeout", "5", "--loglevel", "WARNING"]  # fmt: skip
    if args.locust_processes > 1:
        command += ["--processes", str(args.locust_processes)]
    before = cpu_by_group(groups)
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    with open(folder / "locust.log", "w") as log:
        subprocess.run(command, cwd=ROOT, env=env, check=False, timeout=args.seconds + 120, stdout=log,
                       stderr=subprocess.STDOUT)  # fmt: skip
    wall = time.monotonic() - started
    after = cpu_by_group(groups)
    children_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = {group: after[group] - before[group] for group in after}
    cpu["locust (load)"] = (children_after.ru_utime + children_after.ru_stime) - (
        children_before.ru_utime + children_before.ru_stime
    )
    busy = cpu.pop("machine busy")
    # What the groups above do not account for: other programs on the machine (other test runs, the system).
    cpu["everything else on the machine"] = max(0.0, busy - sum(cpu.values()))
    cpu["machine busy (all of the above)"] = busy
    finals = {}
    for g in games:
        with urllib.request.urlopen(f"{base}/api/games/{g['game']}/sheet/", timeout=30) as answer:
            finals[g["game"]] = json.loads(answer.read())["sequence"]
    # The last entries' deltas reach the viewers (every one, or none comes for 5 s).
    per_game = [viewers // len(games) + (1 if n < viewers % len(games) else 0) for n in range(len(games))]
    crowd.drain(sum(finals[g["game"]] * share for g, share in zip(games, per_game, strict=True)))
    seen = crowd.finish()

    samples = []
    for path in folder.glob("samples*.jsonl"):
        samples += [json.loads(line) for line in path.read_text().splitlines()]
    figures = summarize(samples, cpu=cpu, wall=wall, seen=seen, finals=finals, connect_s=connect_s)
    figures["viewers"]["processes"] = processes
    figures["viewers"]["client_cpu_s"] = seen["cpu_s"]
    figures["label"] = f"{viewers:,} viewers"
    return figures


def _row(rows: list[dict], span: float) -> dict:
    times = [r["ms"] for r in rows]
    return {
        "requests": len(rows),
        "rps": len(rows) / span if span else 0.0,
        "p50_ms": percentile(times, 0.50),
        "p99_ms": percentile(times, 0.99),
        "errors": sum(1 for r in rows if r["error"]),
    }


KINDS = {"pages": "page:", "API": "api", "live entries": "entry:"}


def summarize(samples, *, cpu, wall, seen, finals, connect_s) -> dict:
    span = (max(s["t"] for s in samples) - min(s["t"] for s in samples)) if samples else 0.0
    by_name = {
        name: _row([s for s in samples if s["name"] == name], span) for name in sorted({s["name"] for s in samples})
    }
    by_kind = {kind: _row([s for s in samples if s["name"].startswith(prefix)], span) for kind, prefix in KINDS.items()}
    by_kind["all HTTP"] = _row(samples, span)
    # Every viewer connected before the first entry (sequence 0): it should get one delta per entry of its game.
    expected = sum(finals[g] * seen["games"].get(g, 0) for g in finals)
    received = sum(seen["by_game"].values())
    delays = [d * 1000 for d in seen["delays"]]
    return {
        "seconds": span,
        "by_name": by_name,
        "by_kind": by_kind,
        "viewers": {
            "connected": seen["viewers"],
            "connect_s": connect_s,
            "entries": sum(finals.values()),
            "deltas_expected": expected,
            "deltas_received": received,
            "p50_ms": percentile(delays, 0.50),
            "p99_ms": percentile(delays, 0.99),
        },
        "cpu_share": {group: 100 * seconds / (wall * os.cpu_count()) for group, seconds in cpu.items()},
        "cpu_wall_s": wall,
    }


def _ms(value) -> str:
    return "-" if value is None else f"{value:.0f}"


def report(results: list[dict], args) -> str:
    lines = [f"Load test: {args.seconds} s per configuration, {args.users} HTTP users (3 visitors : 1 API client, "
             f"no think time) + {GAMES} officials (1 entry/s each), {args.web_nodes} public web node(s) + "
             f"{args.official_nodes} officials' node(s), live fan-out: {args.fanout}; nice: public nodes 10, officials' "
             f"node and nginx {args.officials_nice}, viewer clients {args.viewers_nice}; {os.cpu_count()} CPUs "
             f"(os.cpu_count), locust processes: {args.locust_processes}. Each cell: requests/s, p50 ms, p99 ms, "
             "errors.", ""]  # fmt: skip
    header = "| traffic | " + " | ".join(r["label"] for r in results) + " |"
    lines += [header, "|---" * (1 + len(results)) + "|"]
    names = list(results[0]["by_kind"]) + list(results[0]["by_name"])
    for name in names:
        cells = []
        for r in results:
            row = r["by_kind"].get(name) or r["by_name"].get(name)
            cells.append(
                "-"
                if row is None
                else f"{row['rps']:.1f} / {_ms(row['p50_ms'])} / {_ms(row['p99_ms'])} / {row['errors']}"
            )
        label = f"**{name}**" if name in results[0]["by_kind"] else name
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    cells = []
    for r in results:
        v = r["viewers"]
        cells.append(f"{v['connected']:,} connected in {v['connect_s']:.0f} s ({v['processes']} client processes); "
                     f"{v['deltas_received']:,} of {v['deltas_expected']:,} deltas ({v['entries']} entries); "
                     f"entry to viewer p50 {_ms(v['p50_ms'])}, p99 {_ms(v['p99_ms'])} ms")  # fmt: skip
    lines.append("| **scoreboard viewers** | " + " | ".join(cells) + " |")
    lines += ["", f"CPU share of the machine during the {args.seconds} s (100% = every CPU busy):", ""]
    lines += ["| processes | " + " | ".join(r["label"] for r in results) + " |"]
    lines += ["|---" * (1 + len(results)) + "|"]
    for group in results[0]["cpu_share"]:
        lines.append(f"| {group} | " + " | ".join(f"{r['cpu_share'][group]:.0f}%" for r in results) + " |")
    lines += ["", "Viewer clients' own CPU over the whole configuration (connect, run, leave): "
              + ", ".join(f"{r['label']}: {r['viewers']['client_cpu_s']:.0f} s" for r in results)]  # fmt: skip
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=45, help="locust's run per configuration")
    parser.add_argument("--viewers", type=int, nargs="+", default=[1000, 5000, 10000])
    parser.add_argument("--users", type=int, default=40, help="HTTP users besides the officials")
    parser.add_argument("--web-nodes", type=int, default=2, help="public web nodes")
    parser.add_argument("--official-nodes", type=int, default=1, help="the officials' pool (0: none)")
    parser.add_argument("--fanout", choices=["nchan", "channels"], default="nchan")
    parser.add_argument("--viewer-processes", type=int, default=0, help="client processes (0: one per 2,500)")
    parser.add_argument("--locust-processes", type=int, default=1)
    root = os.geteuid() == 0
    parser.add_argument(
        "--officials-nice",
        type=int,
        default=-10 if root else 0,
        help="the officials' node's and nginx's nice value [-10 as root, else 0]: on a shared machine "
        "the latency-bound, light processes come before other programs; the public nodes stay at 10",
    )
    parser.add_argument(
        "--viewers-nice",
        type=int,
        default=-5 if root else 0,
        help="the viewer clients' nice value [-5 as root, else 0]: the measuring clients keep up",
    )
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    topology("stop", args)
    fresh_database()
    results = []
    try:
        topology("start", args)
        world = build_world(GAMES * len(args.viewers))
        for index, viewers in enumerate(args.viewers):
            results.append(run_configuration(viewers, world, args, index))
            (OUT / "results.json").write_text(json.dumps(results, indent=1))
    finally:
        topology("stop", args)
    text = report(results, args)
    (OUT / "results.json").write_text(json.dumps(results, indent=1))
    (OUT / "results.md").write_text(text)
    print("\n" + text)


if __name__ == "__main__":
    main()
