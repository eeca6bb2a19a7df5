#!/usr/bin/env python3
"""Load test of the playground as a class meets it: starts `target/release/playground serve` on
a free loopback port and runs CLIENTS simulated students for SECONDS seconds, each from its own
loopback address (127.0.0.2, 127.0.0.3, ...), each playing on all five pages in turn (the
requests a page makes: positions, course inputs, engine moves, streamed thinking, A* searches,
Bait plays and plans), beside HOSTILE clients that send oversized requests, hold idle and
half-sent sockets and ask for the largest searches. Prints the latency percentiles of the
students' non-search requests and of searches, what the hostile clients got, and the server's
peak memory. Exits 1 when a student's non-search request fails or has a p99 of 50 ms or more,
a search is not answered or refused (503) within its cap, an idle socket is kept past the idle
timeout, an oversized request is not refused, the peak resident memory passes 1 GiB, or the
server is not alive and answering at the end.
    scripts/playground-load.py [--clients 200] [--hostile 20] [--seconds 60] [--binary target/release/playground]
"""
import argparse, http.client, json, random, socket, subprocess, sys, threading, time

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--clients", type=int, default=200)
parser.add_argument("--hostile", type=int, default=None, help="default: a tenth of --clients, at least 1")
parser.add_argument("--seconds", type=float, default=60)
parser.add_argument("--binary", default="target/release/playground")
args = parser.parse_args()
hostile_count = args.hostile if args.hostile is not None else max(1, args.clients // 10)

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
server = subprocess.Popen([args.binary, "serve", "--port", str(port)], stdout=subprocess.PIPE, text=True)
server.stdout.readline()  # "playground: serving ..." once it listens

# The server's caps (docs/playground.md): 10 s of thinking, 30 s of waiting for an engine,
# 15 s idle.
THINK_CAP, WAIT_CAP, IDLE = 10, 30, 15
SEARCH_CAP = THINK_CAP + WAIT_CAP + 5

lock = threading.Lock()
latencies = {"quick": [], "search": []}
errors = []
counts = {"quick": 0, "search": 0, "busy": 0}
hostile = {"oversized": 0, "oversized refused": 0, "idle sockets": 0, "idle closed": 0,
           "largest searches": 0, "largest answered": 0, "largest busy": 0}
deadline = time.time() + args.seconds


class Busy:
    """A search refused with 503: falsy like a failed request, but told apart from it."""
    def __bool__(self):
        return False


BUSY = Busy()


def address(i):
    """The loopback address of client i (127.0.0.2 on)."""
    n = i + 2
    return f"127.0.{n // 250}.{n % 250 + 2}" if n >= 250 else f"127.0.0.{n}"


def request(source, kind, path, body=None):
    """One request from `source` on a new connection: the decoded body, or None when refused."""
    data = None if body is None else json.dumps(body).encode()
    start = time.perf_counter()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=SEARCH_CAP + 10, source_address=(source, 0))
        conn.request("POST" if data else "GET", path, body=data,
                     headers={"Content-Type": "application/json", "Host": f"localhost:{port}"})
        r = conn.getresponse()
        raw = r.read()
        conn.close()
    except Exception as e:  # connection refused or reset, timeout
        with lock:
            errors.append(f"{kind} {path}: {e}")
        return None
    elapsed = time.perf_counter() - start
    with lock:
        if r.status == 503 and kind == "search":
            counts["busy"] += 1
            if elapsed > SEARCH_CAP:
                errors.append(f"{path}: refused after {elapsed:.1f} s")
            return BUSY
        if r.status != 200:
            errors.append(f"{kind} {path}: HTTP {r.status} {raw[:200]!r}")
            return None
        latencies[kind].append(elapsed)
        counts[kind] += 1
        if kind == "search" and elapsed > SEARCH_CAP:
            errors.append(f"{path}: answered after {elapsed:.1f} s")
    text = raw.decode()
    return json.loads(text) if text.strip().startswith(("{", "[")) else text


def xiangqi(src, rng):
    request(src, "quick", "/xiangqi")
    request(src, "quick", "/api/xiangqi/inputs")
    moves = []
    for _ in range(2):
        view = request(src, "quick", "/api/xiangqi/state", {"moves": moves})
        if not view or view["over"]:
            return
        moves.append(rng.choice(view["legal"]))
        text = request(src, "search", f"/api/xiangqi/think?moves={','.join(moves)}&ms=100")
        if not text:
            return
        best = [l for l in text.split("\n") if l.startswith("data: ")][-1]
        mv = json.loads(best[6:])["move"]
        if mv:
            moves.append(mv)
    request(src, "quick", "/api/xiangqi/state", {"moves": moves})


def othello(src, rng):
    request(src, "quick", "/othello")
    moves = []
    for _ in range(3):
        view = request(src, "quick", "/api/othello/state", {"moves": moves})
        if not view or view["over"]:
            return
        moves.append(rng.choice(view["legal"]))
        decider = rng.choice(["alphabeta:3", "minimax:2", "mtdf:3", "learned:4"])
        r = request(src, "search", "/api/othello/move", {"moves": moves, "decider": decider, "ms": 200})
        if not r:
            return
        moves.append(r["move"])


def connect4(src, rng):
    request(src, "quick", "/connect4")
    view = request(src, "quick", "/api/connect4/new", {"seed": rng.randrange(1000)})
    for _ in range(3):
        if not view or view["over"]:
            return
        game = dict(view["game"])
        game["moves"] = game["moves"] + [rng.choice(view["legal"])]
        view = request(src, "quick", "/api/connect4/state", game)
        if not view or view["over"]:
            return
        r = request(src, "search", "/api/connect4/move", {**view["game"], "ms": 100})
        view = r and r["view"]


def astar(src, rng):
    request(src, "quick", "/astar")
    inputs = request(src, "quick", "/api/astar/inputs")
    if inputs:
        request(src, "search", "/api/astar/search", {"map": rng.choice(inputs[:8])["text"], "algo": rng.choice(["astar", "ucs"])})
    request(src, "search", "/api/astar/search", {"generate": {"rows": 30, "cols": 40, "food": 8, "seed": rng.randrange(1000)}})


def bait(src, rng):
    request(src, "quick", "/bait")
    levels = request(src, "quick", "/api/bait/levels")
    if not levels:
        return
    level = rng.choice(levels[:2])["text"]
    actions = ""
    for _ in range(4):
        actions += rng.choice("UDLR")
        request(src, "quick", "/api/bait/play", {"level": level, "actions": actions})
    request(src, "search", "/api/bait/optimal", {"level": level})
    request(src, "search", "/api/bait/agent", {"level": level, "agent": "astar"})


PAGES = [xiangqi, othello, connect4, astar, bait]


def student(i):
    rng = random.Random(i)
    src = address(i)
    k = i
    while time.time() < deadline:
        PAGES[k % len(PAGES)](src, rng)
        k += 1


def oversized(src):
    """A body over the 256 KB the app reads: refused (413, or the connection closed)."""
    size = 4 * 1024 * 1024
    s = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(src, 0))
    head = (f"POST /api/astar/search HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            f"Content-Length: {size}\r\n\r\n").encode()
    refused = False
    try:
        s.sendall(head + b" " * 65536)
        reply = s.recv(200)
        refused = reply.startswith(b"HTTP/1.1 413") or reply == b""
    except OSError:
        refused = True  # closed on us: refused too
    s.close()
    with lock:
        hostile["oversized"] += 1
        hostile["oversized refused"] += refused
        if not refused:
            errors.append("an oversized request was not refused")


def closed_within(s):
    """Whether the server closes `s` (maybe after an error response) within the idle timeout
    and a margin."""
    try:
        while s.recv(4096):
            pass
        return True
    except socket.timeout:
        return False
    except OSError:
        return True


def idle_sockets(src, rng):
    """Five sockets from one address that send nothing or half a request, then wait."""
    socks = []
    for j in range(5):
        s = socket.create_connection(("127.0.0.1", port), timeout=IDLE + 10, source_address=(src, 0))
        if j % 2:
            s.sendall(b"POST /api/othello/state HTTP/1.1\r\nHost: local")
        socks.append(s)
    for s in socks:
        closed = closed_within(s)
        s.close()
        with lock:
            hostile["idle sockets"] += 1
            hostile["idle closed"] += closed
            if not closed:
                errors.append(f"an idle socket was kept beyond {IDLE + 10} s")


def largest_searches(src, rng):
    """The longest searches a page can ask for: answered or refused within the cap."""
    levels = request(src, "quick", "/api/bait/levels")
    bodies = [
        ("/api/connect4/move", {"m": 12, "n": 12, "no_x": 0, "no_y": 0, "moves": [], "ms": 10**9}),
        ("/api/othello/move", {"moves": [], "decider": "minimax:6"}),
        ("/api/astar/search", {"generate": {"rows": 500, "cols": 500, "food": 200, "seed": 1}}),
    ]
    if levels:
        bodies.append(("/api/bait/agent", {"level": levels[-1]["text"], "agent": "bfs"}))
    path, body = rng.choice(bodies)
    r = request(src, "search", path, body)
    with lock:
        hostile["largest searches"] += 1
        if r is BUSY:
            hostile["largest busy"] += 1
        elif r is not None:
            hostile["largest answered"] += 1


def attacker(i):
    rng = random.Random(10_000 + i)
    src = address(args.clients + i)
    while time.time() < deadline:
        kind = rng.randrange(3)
        if kind == 0:
            oversized(src)
        elif kind == 1:
            idle_sockets(src, rng)
        else:
            largest_searches(src, rng)


peak = [0]


def watch_memory():
    while server.poll() is None and time.time() < deadline + SEARCH_CAP:
        try:
            with open(f"/proc/{server.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        peak[0] = max(peak[0], int(line.split()[1]))
        except FileNotFoundError:
            break
        time.sleep(0.2)


threads = [threading.Thread(target=student, args=(i,)) for i in range(args.clients)]
threads += [threading.Thread(target=attacker, args=(i,)) for i in range(hostile_count)]
watcher = threading.Thread(target=watch_memory, daemon=True)
watcher.start()
for t in threads:
    t.start()
for t in threads:
    t.join()
# Alive and answering at the end?
alive = server.poll() is None and request("127.0.0.1", "quick", "/api/othello/state", {"moves": []}) is not None
server.terminate()
server.wait()


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] * 1000 if xs else float("nan")


print(f"{args.clients} students and {hostile_count} hostile clients for {args.seconds:.0f} s on 127.0.0.1:{port}:")
for kind in ("quick", "search"):
    xs = latencies[kind]
    print(f"  {'non-search' if kind == 'quick' else 'search':10} {counts[kind]:6} answered  "
          f"p50 {percentile(xs, 50):7.1f} ms  p99 {percentile(xs, 99):7.1f} ms  max {percentile(xs, 100):7.1f} ms")
print(f"  searches refused as busy (503) within the cap: {counts['busy']}")
print("  hostile: " + ", ".join(f"{k} {v}" for k, v in hostile.items()))
print(f"  errors {len(errors)}; peak server memory {peak[0] / 1024:.0f} MiB; server alive at the end: {alive}")
for e in errors[:10]:
    print("   ", e)
bad = (errors or percentile(latencies["quick"], 99) >= 50 or peak[0] > 1024 * 1024
       or counts["quick"] == 0 or not alive)
sys.exit(1 if bad else 0)
