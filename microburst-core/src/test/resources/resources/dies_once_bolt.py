#!/usr/bin/env python3
"""A multi-lang bolt for tests: the first instance of the topology exits at its first tuple, without a word (its pid
directory keeps a marker); later instances ack every tuple."""
import os

from multilang_bolt import run, send


def on_tuple(msg, pid_dir):
    marker = os.path.join(pid_dir, "died-once")
    if not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(1)
    send({"command": "ack", "id": msg["id"]})


if __name__ == "__main__":
    run(on_tuple)
