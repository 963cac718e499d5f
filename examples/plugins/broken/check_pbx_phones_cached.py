#!/usr/bin/env python3
"""Broken on purpose: check_pbx_phones with the agent text cached for 5 minutes in a FIXED
folder (--cache-dir DIR, default /var/tmp/check_pbx_phones), not keyed by host: every later
run reports the first run's phones. Sealed, certify-plugin gives each run a fresh /var/tmp and
a read-only file system, so no cache outlives a run; unsealed (or with a cache folder the
sandbox cannot refresh), PLUGIN-FIGURES-FOLLOW-SERVED catches it: served truth is the second
line of defence.
"""

import os
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import check_pbx_phones as plugin  # noqa: E402

CACHE_DIR = "/var/tmp/check_pbx_phones"
if "--cache-dir" in sys.argv[:-1]:
    at = sys.argv.index("--cache-dir")
    CACHE_DIR = sys.argv[at + 1]
    del sys.argv[at : at + 2]
CACHE_FILE = os.path.join(CACHE_DIR, "agent.txt")
fresh_fetch = plugin.fetch


def cached_fetch(host, port, timeout):
    try:
        if time.time() - os.path.getmtime(CACHE_FILE) < 300:
            with open(CACHE_FILE, encoding="utf-8") as cached:
                return cached.read()
    except OSError:
        pass
    text = fresh_fetch(host, port, timeout)
    os.makedirs(CACHE_DIR, exist_ok=True)
    with open(CACHE_FILE, "w", encoding="utf-8") as cache:
        cache.write(text)
    return text


plugin.fetch = cached_fetch

if __name__ == "__main__":
    plugin.main()
