# The page's requests on 1 s windows through the API (issue 28; not a test): a server started with
# `ocelotl view TRACE` (its warm-up on, decision 070), then WAIT s later, on five 1 s windows twice over, the
# Gantt chart's SVG (every producer, states, events and links, 1200 × 420), the statistics by producer
# (top 10) and the event table's first page (100 longest states), as the page asks them. Per request
# the wall time (sent → body read), the server's CPU (/proc, all threads), the answer's size, and the
# server's user and system CPU and minor page faults (its CPU follows them, decision 069). WINDOW
# (A,B): [A, B) s ten times instead of the five windows.
#   python3 bench/window_api.py ocelotl-app/target/ocelotl.jar WORKSPACE TRACE WAIT [WINDOW]
import os, subprocess, sys, time, urllib.error, urllib.request
jar, ws, trace, wait = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
windows = [tuple(map(int, sys.argv[5].split(",")))] * 10 if len(sys.argv) > 5 else [(5, 6), (2, 3), (7, 8), (4, 5), (6, 7)] * 2
srv = subprocess.Popen(["java", "-jar", jar, "view", trace, "--port", "0", "--workspace", ws], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
url = srv.stdout.readline().strip()
base, token = url.split("?")[0], url.split("token=")[1].split("&")[0]
tid = url.split("trace=")[1].split("&")[0]
tick = os.sysconf("SC_CLK_TCK")
def stat():
    f = open(f"/proc/{srv.pid}/stat").read().rsplit(")", 1)[1].split()
    return int(f[11]) / tick, int(f[12]) / tick, int(f[7])  # user, system, minor faults
def get(path):
    s0, w0 = stat(), time.time()
    try:
        body = urllib.request.urlopen(urllib.request.Request(f"{base}api/{path}", headers={"X-Ocelotl-Token": token})).read()
    except urllib.error.HTTPError as e:
        sys.exit(f"{path}: HTTP {e.code}: {e.read().decode()}")
    s1 = stat()
    return len(body), time.time() - w0, f"{(s1[0] + s1[1] - s0[0] - s0[1])*1000:.0f} ms cpu {len(body)} bytes " \
        f"(user {(s1[0] - s0[0])*1000:.0f}, system {(s1[1] - s0[1])*1000:.0f}, {s1[2] - s0[2]} minor faults)"
try:
    time.sleep(wait)
    for k, (a, b) in enumerate(windows):
        n, w, c = get(f"gantt?trace={tid}&from={a}&to={b}&kind=state%7Cevent%7Clink&format=svg&width=1200&height=420")
        print(f"gantt [{a},{b}) #{k}: {w*1000:.0f} ms wall {c}", flush=True)
        n, w, c = get(f"stats?trace={tid}&from={a}&to={b}&by=producer&top=10")
        print(f"stats [{a},{b}) #{k}: {w*1000:.0f} ms wall {c}", flush=True)
        n, w, c = get(f"events?trace={tid}&from={a}&to={b}&kind=state&sort=-duration&offset=0&limit=100")
        print(f"events [{a},{b}) #{k}: {w*1000:.0f} ms wall {c}", flush=True)
finally:
    srv.terminate(); srv.wait()
