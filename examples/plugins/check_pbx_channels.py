#!/usr/bin/env python3
"""check_pbx_channels: a check plug-in for the PBX's channels, written the way the field's channel
counters read `<<<pbx_channels>>>` (field-line-shapes.md): the maximum is the line that ends in
`max calls`, every other non-empty line is one active channel (by technology: SIP/, DAHDI/,
other). The calls of the last 5 minutes come from `<<<pbx_calls>>>` (`last_5min_calls N`).

State from the share of the maximum in use, judged on the thresholds -w and -c, ranges in the
Monitoring Plugins' grammar `[@][start:][end]`: CRITICAL when -c alerts (default `90`: above
90 %), WARNING when -w alerts (default `80`: above 80 %); UNKNOWN when the endpoint cannot be read
within --timeout seconds, answers nothing or an `ERROR:` line, or has no `<<<pbx_channels>>>`.
Perfdata: channels_active, channels_max (when known, the `-1` sentinel left out), channels_usage
(%, with the two ranges, when the maximum is above 0), calls_last_5min (when known).

Usage: check_pbx_channels.py -H HOST [-p PORT] [-w RANGE] [-c RANGE] [-t SECONDS]
"""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_pbx_phones as base  # noqa: E402  (fetch, section, lookup, arguments)

OK, WARNING, CRITICAL, UNKNOWN = base.OK, base.WARNING, base.CRITICAL, base.UNKNOWN


def finish(state, text, perfdata=()):
    line = "PBX CHANNELS %s - %s" % (base.NAMES[state], text)
    if perfdata:
        line += " | " + " ".join(perfdata)
    print(line)
    sys.exit(state)


def read_channels(lines):
    """(maximum or None, active channel names) the field's way."""
    maximum = None
    channels = []
    for row in lines:
        if row.strip() == "":
            continue
        if row.endswith("max calls"):
            value = row[: -len(" max calls")]
            maximum = int(value) if value.isdigit() else None
            continue
        channels.append(row)
    return maximum, channels


def main():
    base.VERSION = "check_pbx_channels 1.1.0"
    base.__doc__ = __doc__
    base.USAGE = "Usage: check_pbx_channels.py -H HOST [-p PORT] [-w RANGE] [-c RANGE] [-t SECONDS]"
    options = base.parse_args(sys.argv[1:], {"warning": "80", "critical": "90"})
    text = base.get_text(options)
    if text.strip() == "" or text.startswith("ERROR:"):
        finish(UNKNOWN, "no data from %s:%d" % (options["host"], options["port"]))
    lines = base.section(text, "pbx_channels")
    if lines is None:
        finish(UNKNOWN, "no <<<pbx_channels>>> section in the agent output")
    maximum, channels = read_channels(lines)
    perfdata = ["channels_active=%d;;;0" % len(channels)]
    calls = base.count(base.section(text, "pbx_calls") or [], "last_5min_calls")
    if calls is not None:
        perfdata.append("calls_last_5min=%d;;;0" % calls)
    sip = sum(1 for c in channels if c.startswith("SIP/"))
    dahdi = sum(1 for c in channels if c.startswith("DAHDI/"))
    text = "%d active channels (SIP %d, DAHDI %d, other %d)" % (len(channels), sip, dahdi, len(channels) - sip - dahdi)
    if maximum is not None:
        perfdata.append("channels_max=%d;;;0" % maximum)
    if maximum is None or maximum <= 0:
        finish(OK, text + ", no maximum", perfdata)
    # Judged on the value as printed, so that the printed ranges say what the state says.
    usage = round(100.0 * len(channels) / maximum, 1)
    perfdata.append("channels_usage=%.1f%%;%s;%s;0" % (usage, options["warning"], options["critical"]))
    text += " of %d (%.1f %%)" % (maximum, usage)
    if base.alerts(base.parse_range(options["critical"]), usage):
        finish(CRITICAL, text, perfdata)
    if base.alerts(base.parse_range(options["warning"]), usage):
        finish(WARNING, text, perfdata)
    finish(OK, text, perfdata)


if __name__ == "__main__":
    main()
