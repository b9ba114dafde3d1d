#!/usr/bin/env python3
"""A multi-lang bolt for tests: the first instance of the topology exits at its first tuple, without a word (its pid
directory keeps a marker); later instances ack every tuple.

Speaks Storm's multi-lang protocol directly: JSON messages, each followed by a line "end".
"""
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


def main():
    handshake = read_message()
    pid = os.getpid()
    pid_dir = handshake["pidDir"]
    open(os.path.join(pid_dir, str(pid)), "w").close()
    send({"pid": pid})
    marker = os.path.join(pid_dir, "died-once")
    while True:
        msg = read_message()
        if msg.get("stream") == "__heartbeat":
            send({"command": "sync"})
            continue
        if not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(1)
        send({"command": "ack", "id": msg["id"]})


if __name__ == "__main__":
    main()
