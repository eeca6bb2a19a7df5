#!/usr/bin/env python3
"""Load test of the playground: starts `target/release/playground serve` on a free loopback
port, runs CLIENTS concurrent clients for SECONDS seconds, each playing on all five pages in
turn (the requests a page makes: positions, course inputs, engine moves, streamed thinking, A*
searches, Bait plays and plans), then prints the latency percentiles of non-search requests
(pages, positions, inputs, plays) and of searches, the error count and the server's peak
memory. Exits 1 on any error response, a p99 of non-search requests of 50 ms or more, or a
peak resident memory over 1 GiB.
    scripts/playground-load.py [--clients 8] [--seconds 30] [--binary target/release/playground]
"""
import argparse, json, random, socket, subprocess, sys, threading, time, urllib.error, urllib.request

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--clients", type=int, default=8)
parser.add_argument("--seconds", type=float, default=30)
parser.add_argument("--binary", default="target/release/playground")
args = parser.parse_args()

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
base = f"http://127.0.0.1:{port}"
server = subprocess.Popen([args.binary, "serve", "--port", str(port)], stdout=subprocess.PIPE, text=True)
server.stdout.readline()  # "playground: serving ..." once it listens

lock = threading.Lock()
latencies = {"quick": [], "search": []}
errors = []
counts = {"quick": 0, "search": 0}


def request(kind, path, body=None, stream=False):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"} if data else {})
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            raw = r.read()
    except urllib.error.HTTPError as e:
        with lock:
            errors.append(f"{path}: HTTP {e.code} {e.read()[:200]!r}")
        return None
    except Exception as e:  # connection refused, timeout
        with lock:
            errors.append(f"{path}: {e}")
        return None
    elapsed = time.perf_counter() - start
    with lock:
        latencies[kind].append(elapsed)
        counts[kind] += 1
    if stream:
        return raw.decode()
    return json.loads(raw) if raw.strip().startswith((b"{", b"[")) else raw


def xiangqi(rng):
    request("quick", "/xiangqi")
    request("quick", "/api/xiangqi/inputs")
    moves = []
    for _ in range(2):
        view = request("quick", "/api/xiangqi/state", {"moves": moves})
        if not view or view["over"]:
            return
        moves.append(rng.choice(view["legal"]))
        text = request("search", f"/api/xiangqi/think?moves={','.join(moves)}&ms=100", stream=True)
        if text is None:
            return
        best = [l for l in text.split("\n") if l.startswith("data: ")][-1]
        mv = json.loads(best[6:])["move"]
        if mv:
            moves.append(mv)
    request("quick", "/api/xiangqi/state", {"moves": moves})


def othello(rng):
    request("quick", "/othello")
    moves = []
    for _ in range(3):
        view = request("quick", "/api/othello/state", {"moves": moves})
        if not view or view["over"]:
            return
        moves.append(rng.choice(view["legal"]))
        decider = rng.choice(["alphabeta:3", "minimax:2", "mtdf:3", "learned:4"])
        r = request("search", "/api/othello/move", {"moves": moves, "decider": decider, "ms": 200})
        if r:
            moves.append(r["move"])


def connect4(rng):
    request("quick", "/connect4")
    view = request("quick", "/api/connect4/new", {"seed": rng.randrange(1000)})
    for _ in range(3):
        if not view or view["over"]:
            return
        game = dict(view["game"])
        game["moves"] = game["moves"] + [rng.choice(view["legal"])]
        view = request("quick", "/api/connect4/state", game)
        if not view or view["over"]:
            return
        r = request("search", "/api/connect4/move", {**view["game"], "ms": 100})
        view = r and r["view"]


def astar(rng):
    request("quick", "/astar")
    inputs = request("quick", "/api/astar/inputs")
    if inputs:
        request("search", "/api/astar/search", {"map": rng.choice(inputs[:8])["text"], "algo": rng.choice(["astar", "ucs"])})
    request("search", "/api/astar/search", {"generate": {"rows": 30, "cols": 40, "food": 8, "seed": rng.randrange(1000)}})


def bait(rng):
    request("quick", "/bait")
    levels = request("quick", "/api/bait/levels")
    if not levels:
        return
    level = rng.choice(levels[:2])["text"]
    actions = ""
    for _ in range(4):
        actions += rng.choice("UDLR")
        request("quick", "/api/bait/play", {"level": level, "actions": actions})
    request("search", "/api/bait/optimal", {"level": level})
    request("search", "/api/bait/agent", {"level": level, "agent": "astar"})


PAGES = [xiangqi, othello, connect4, astar, bait]
deadline = time.time() + args.seconds


def client(i):
    rng = random.Random(i)
    k = i
    while time.time() < deadline:
        PAGES[k % len(PAGES)](rng)
        k += 1


peak = [0]


def watch_memory():
    while server.poll() is None and time.time() < deadline + 5:
        try:
            with open(f"/proc/{server.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        peak[0] = max(peak[0], int(line.split()[1]))
        except FileNotFoundError:
            break
        time.sleep(0.2)


threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
watcher = threading.Thread(target=watch_memory, daemon=True)
watcher.start()
for t in threads:
    t.start()
for t in threads:
    t.join()
server.terminate()
server.wait()


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] * 1000 if xs else float("nan")


print(f"{args.clients} clients for {args.seconds:.0f} s on {base}:")
for kind in ("quick", "search"):
    xs = latencies[kind]
    print(f"  {'non-search' if kind == 'quick' else 'search':10} {counts[kind]:6} requests  "
          f"p50 {percentile(xs, 50):7.1f} ms  p99 {percentile(xs, 99):7.1f} ms  max {percentile(xs, 100):7.1f} ms")
print(f"  errors {len(errors)}; peak server memory {peak[0] / 1024:.0f} MiB")
for e in errors[:10]:
    print("   ", e)
bad = errors or percentile(latencies["quick"], 99) >= 50 or peak[0] > 1024 * 1024 or counts["quick"] == 0
sys.exit(1 if bad else 0)
