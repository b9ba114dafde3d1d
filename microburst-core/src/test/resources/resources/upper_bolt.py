#!/usr/bin/env python3
"""A multi-lang bolt for tests: upper-cases the first field of each tuple, anchored, then acks it."""
from multilang_bolt import run, send


def on_tuple(msg, pid_dir):
    send({"command": "emit", "anchors": [msg["id"]], "tuple": [msg["tuple"][0].upper()], "need_task_ids": False})
    send({"command": "ack", "id": msg["id"]})


if __name__ == "__main__":
    run(on_tuple)
