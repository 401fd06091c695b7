# A zoom's first answer through the API (issue 28, decision 064), as the page asks it, both forms
# alternated as in bench/ZoomCost.java: at the p the analyst had (the whole run's default p), then
# the window's default p; and the window's default p as the first answer. Per request the wall time
# (sent → body read) and the server process's CPU (/proc). Not a test.
#   python3 bench/zoom_first_api.py ocelotl-app/target/ocelotl.jar WORKSPACE TRACE_ID ZOOMS
# With VIEW=TRACE (its file, imported in WORKSPACE) the server is `ocelotl view TRACE`, whose warm-up
# (decision 070) runs for WAIT seconds (default 30) before the first request, during which the
# server's CPU is printed; TRACE_ID is then the one the server names.
import json, os, subprocess, sys, time, urllib.request
jar, ws, trace_id, zooms = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
heap = "-XX:G1PeriodicGCInterval=10000 -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30".split()
view = os.environ.get("VIEW")
command = ["view", view] if view else ["serve"]
srv = subprocess.Popen(["java", *heap, "-cp", jar, "org.ocelotl.app.Main", *command, "--port", "0", "--workspace", ws],
                       stdout=subprocess.PIPE, text=True)
url = srv.stdout.readline().strip()
if view:
    trace_id = url.split("trace=")[1].split("&")[0]
base, token = url.split("?")[0], url.split("token=")[1].split("&")[0]
tick = os.sysconf("SC_CLK_TCK")
def cpu():
    f = open(f"/proc/{srv.pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / tick
def get(q):
    c0, w0 = cpu(), time.time()
    r = urllib.request.urlopen(urllib.request.Request(f"{base}api/overview?trace={trace_id}&aggregation=spatiotemporal&view=mode"
        f"&slices=100&depth=0&height=800&{q}", headers={"X-Ocelotl-Token": token}))
    body = json.loads(r.read())
    return body, time.time() - w0, cpu() - c0
try:
    if view:
        c0 = cpu()
        time.sleep(float(os.environ.get("WAIT", "30")))
        print(f"view server idle for {os.environ.get('WAIT', '30')} s: {cpu() - c0:.2f} s cpu (its warm-up)", flush=True)
    meta = json.loads(urllib.request.urlopen(urllib.request.Request(f"{base}api/traces/{trace_id}",
        headers={"X-Ocelotl-Token": token})).read())
    s, e = meta["start"], meta["end"]
    whole, w, c = get("progressive=1")
    yours = whole["p"]
    print(f"whole run, first answer: p {yours:.6g} ({whole['partCount']} parts) {w:.3f} s wall {c:.2f} s cpu", flush=True)
    for r in range(zooms):
        for k in range(2):
            at_yours = (r + k) % 2 == 0
            shift = 0.01 * r + (0 if at_yours else 0.005)
            z0, z1 = s + (e - s) * (0.30 + shift), s + (e - s) * (0.60 + shift)
            q = f"start={z0!r}&end={z1!r}&progressive=1" + (f"&p={yours!r}" if at_yours else "")
            body, w, c = get(q)
            print(f"zoom {r} {'at your p' if at_yours else 'default p':10s} [{z0:.3f}, {z1:.3f}): {w:.3f} s wall {c:.2f} s cpu,"
                  f" provisional {body.get('provisional')}, p {body['p']:.4g}, {body['partCount']} parts", flush=True)
            if at_yours: # then the page's second request: the window's default p
                body, w, c = get(f"start={z0!r}&end={z1!r}&progressive=1")
                print(f"       then its default p: {w:.3f} s wall {c:.2f} s cpu, p {body['p']:.4g}, {body['partCount']} parts", flush=True)
finally:
    srv.terminate()
    srv.wait()
