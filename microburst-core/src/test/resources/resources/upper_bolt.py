#!/usr/bin/env python3
"""A multi-lang bolt for tests: upper-cases the first field of each tuple, anchored, then acks it.

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
    open(os.path.join(handshake["pidDir"], str(pid)), "w").close()
    send({"pid": pid})
    while True:
        msg = read_message()
        if msg.get("stream") == "__heartbeat":
            send({"command": "sync"})
            continue
        word = msg["tuple"][0]
        send({"command": "emit", "anchors": [msg["id"]], "tuple": [word.upper()], "need_task_ids": False})
        send({"command": "ack", "id": msg["id"]})


if __name__ == "__main__":
    main()
