#!/usr/bin/python3
"""A token ring with some computation on the hosts of a platform file, for the topology graph
(Debian package python3-simgrid 3.32). Each host's actor computes, then sends a message to the
next host and receives from the previous one, ROUNDS times. Deterministic (simulated time only).
Usage: ring.py platform.xml ROUNDS [SimGrid --cfg options]"""
import sys
from simgrid import Engine, Actor, Host, Mailbox, this_actor

def node(rank, hosts, rounds):
    me = Mailbox.by_name(hosts[rank])
    nxt = Mailbox.by_name(hosts[(rank + 1) % len(hosts)])
    for r in range(rounds):
        this_actor.execute(1e8 * (1 + (rank + r) % 3))
        if rank % 2 == 0:  # half send first, half receive first: a ring of blocking puts would deadlock
            nxt.put(f"token {r}", int(1e6 * (1 + rank)))
            me.get()
        else:
            me.get()
            nxt.put(f"token {r}", int(1e6 * (1 + rank)))

if __name__ == "__main__":
    e = Engine(sys.argv)
    e.load_platform(sys.argv[1])
    rounds = int(sys.argv[2])
    hosts = sorted(h.name for h in e.all_hosts)
    for i, h in enumerate(hosts):
        Actor.create(f"ring-{i}", Host.by_name(h), node, i, hosts, rounds)
    e.run()
