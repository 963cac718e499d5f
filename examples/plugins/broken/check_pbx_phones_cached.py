#!/usr/bin/env python3
"""Broken on purpose: check_pbx_phones with the agent text cached for 5 minutes in a FIXED
folder (PBX_PLUGIN_CACHE_DIR, default /var/tmp/check_pbx_phones), not keyed by host: every
later run reports the first run's phones (PLUGIN-FIGURES-FOLLOW-SERVED catches it; fresh
temp folders cannot, a fixed absolute path is out of the harness's reach).
"""

import os
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import check_pbx_phones as plugin  # noqa: E402

CACHE_DIR = os.environ.get("PBX_PLUGIN_CACHE_DIR", "/var/tmp/check_pbx_phones")
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
