"""Storm's multi-lang protocol for the test bolts here: JSON messages, each followed by a line "end"."""
import json
import os
import sys


def read_message():
    lines = []
    while True:
        line = sys.stdin.readline()
        if not line:
            sys.exit(0)
        line = line.rstrip("\n")
        if line == "end":
            return json.loads("\n".join(lines))
        lines.append(line)


def send(message):
    sys.stdout.write(json.dumps(message) + "\nend\n")
    sys.stdout.flush()


def run(on_tuple):
    """Answers the handshake with this process's pid (noted in the pid directory as Storm asks), answers heartbeats,
    and hands every tuple to on_tuple(message, pid_dir)."""
    handshake = read_message()
    pid = os.getpid()
    pid_dir = handshake["pidDir"]
    open(os.path.join(pid_dir, str(pid)), "w").close()
    send({"pid": pid})
    while True:
        msg = read_message()
        if msg.get("stream") == "__heartbeat":
            send({"command": "sync"})
            continue
        on_tuple(msg, pid_dir)
