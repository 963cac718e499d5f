@certify-plugin @sealed-run
Feature: certify-plugin runs a plug-in sealed, so that it is judged on what it does with the PBX alone
  plugin-interface.md, "A run" and "What the plug-in reports": a verdict is earned against the PBX
  as the scenario set it. certify-plugin runs every plug-in invocation in bubblewrap (issue 28 §4;
  docs/certify-plugin.md, "A sealed run"): a cleared environment, a read-only file system with a
  fresh /tmp, /var/tmp and HOME, a PID namespace that ends with the run, and the host network; the
  scenario's PBX has no control listener at all. Each scenario below certifies a hostile plug-in
  that tries to get past one protection, and asserts both what the plug-in could not do and the
  verdict of the clause that protection keeps honest. Where this machine cannot seal a run the
  scenarios are not verifiable (PBX_REQUIRE_SEALED=1 makes that a failure).

  @PLUGIN-LOCALE-INDEPENDENT
  Scenario: A plug-in that reads every environment it can finds the run's locale and no secret of the harness
    Given this machine can seal a plug-in run
    And this machine has the locale "de_DE.UTF-8"
    And a process of the harness holds the secret "CI_DEPLOY_TOKEN" in its environment
    And the plug-in "check_env.sh":
      """
      #!/bin/sh
      # Hostile: reads its own environment and, through /proc, every other process's, and prints
      # the secret where it finds it. Its one figure it formats in the caller's locale.
      case "$1" in --help|--version) echo "check_env 1.0 - prints what its environment holds"; exit 3 ;; esac
      found=$(for f in /proc/[0-9]*/environ; do tr '\0' '\n' < "$f" 2>/dev/null; done | grep '^CI_DEPLOY_TOKEN=' | sort -u | tr '\n' ' ')
      [ -n "$CI_DEPLOY_TOKEN" ] && found="own:$CI_DEPLOY_TOKEN $found"
      echo "PBX OK - read the environment | share=$(/usr/bin/printf '%.1f' 0.5);;;0;1"
      echo "variables: $(env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p' | sort | tr '\n' ' ')"
      echo "secret: ${found:-none found}"
      """
    When certify-plugin runs "./check_env.sh {host} {port}" on the scenario "healthy" with the extra runs
    Then every run of the plug-in on a PBX printed "secret: none found"
    And no run of the plug-in printed the secret's value
    And every run of the plug-in on a PBX saw only PATH, the locale variables, TZ, HOME and its own temp folders
    And the run "healthy (LC_ALL=de_DE.UTF-8)" of the plug-in printed "LC_ALL"
    And PLUGIN-LOCALE-INDEPENDENT warns on the run "healthy (LC_ALL=de_DE.UTF-8)" because "under LC_ALL=de_DE.UTF-8"
    And the certification as a whole passes: a broken should-rule only warns

  @PLUGIN-STATE-AGREES-WITH-PBX
  Scenario: A plug-in that looks for its PBX's control plane finds none, and is judged against the PBX as the scenario set it
    Given this machine can seal a plug-in run
    And the expectations file:
      """
      watches: ['PBX Backup*']
      """
    And the plug-in "check_control.py":
      """
      #!/usr/bin/env python3
      # Hostile: looks for the control plane of the PBX it is judged against on every TCP port
      # listening on its own address and on 127.0.0.1 (/proc/net/tcp), switches that PBX to the
      # healthy scenario where it finds it, and then says OK, whatever the PBX said.
      import json, socket, sys, urllib.request
      from concurrent.futures import ThreadPoolExecutor
      host, port = sys.argv[1], int(sys.argv[2])
      candidates = set()
      with open('/proc/net/tcp') as table:
          for line in table.read().splitlines()[1:]:
              fields = line.split()
              address, number = fields[1].split(':')
              ip = socket.inet_ntoa(bytes.fromhex(address)[::-1])
              if fields[3] == '0A' and ip in (host, '127.0.0.1', '0.0.0.0'):
                  candidates.add(('127.0.0.1' if ip == '0.0.0.0' else ip, int(number, 16)))
      opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
      def mine(candidate):
          try:
              with opener.open('http://%s:%d/monitoring/status' % candidate, timeout=1) as answer:
                  status = json.load(answer)
              return candidate if status.get('host') == host and status.get('port') == port else None
          except Exception:
              return None
      with ThreadPoolExecutor(32) as pool:
          found = [c for c in pool.map(mine, sorted(candidates)) if c]
      changed = 0
      for candidate in found:
          switch = urllib.request.Request('http://%s:%d/scenario' % candidate, data=b'{"name": "healthy"}',
                                          method='PUT', headers={'content-type': 'application/json'})
          try:
              opener.open(switch, timeout=2).read()
              changed += 1
          except Exception:
              pass
      print('PBX BACKUPS OK - all fine')
      print('looked at %d listening ports: found %d control planes of my PBX, changed %d' % (len(candidates), len(found), changed))
      """
    When certify-plugin runs "./check_control.py {host} {port}" on the scenario "backup-failed"
    Then every run of the plug-in on a PBX printed "found 0 control planes of my PBX, changed 0"
    And after the run the PBX still gives "PBX Backup*" the state CRITICAL
    And PLUGIN-STATE-AGREES-WITH-PBX fails on the run "backup-failed" because "state OK, but the PBX gives"
    And the certification as a whole fails

  @PLUGIN-FIGURES-FOLLOW-SERVED
  Scenario: A plug-in that keeps its answer outside its folders finds no earlier run's answer, and its figures follow the PBX
    Given this machine can seal a plug-in run
    And the plug-in "check_kept.py":
      """
      #!/usr/bin/env python3
      # Hostile: keeps its first answer outside its folders (the project folder, its user's home,
      # /var/tmp) and in every later run prints the kept answer instead of asking the PBX.
      import os, pwd, re, socket, sys
      host, port = sys.argv[1], int(sys.argv[2])
      name = 'pbx-certify-sealed-kept-answer.txt'
      places = [os.path.join(os.getcwd(), name), os.path.join(pwd.getpwuid(os.getuid()).pw_dir, '.' + name),
                os.path.join('/var/tmp', name)]
      for place in places:
          try:
              with open(place) as kept:
                  print(kept.read().strip())
                  print('kept answer: found in %s' % place)
                  sys.exit(0)
          except OSError:
              pass
      try:
          with socket.create_connection((host, port), timeout=8) as s:
              text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      except OSError as error:
          print('PBX PHONES UNKNOWN - cannot read %s:%d: %s' % (host, port, error))
          sys.exit(3)
      online = re.search(r'^online_phones (\d+)$', text, re.M)
      if not online:
          print('PBX PHONES UNKNOWN - no online_phones line')
          sys.exit(3)
      answer = 'PBX PHONES OK - %s phones online | online=%s;;;0' % (online.group(1), online.group(1))
      kept = []
      for place in places:
          try:
              with open(place, 'w') as out:
                  out.write(answer)
              kept.append(place)
          except OSError:
              pass
      print(answer)
      print('kept answer: none found; kept now in %s' % (', '.join(kept) or 'no place'))
      """
    When certify-plugin runs "./check_kept.py {host} {port}" on the scenarios "healthy", "all-phones-offline" and "large"
    Then every run of the plug-in on a PBX printed "kept answer: none found"
    And no file the plug-in kept is left in the project folder, the home folder or /var/tmp
    And PLUGIN-FIGURES-FOLLOW-SERVED passes, judged on the runs "healthy", "all-phones-offline" and "large"

  @PLUGIN-EXIT-CODE
  Scenario: A plug-in that leaves a detached child behind ends with its run, and the child with it
    Given this machine can seal a plug-in run
    And the plug-in "check_daemon.sh":
      """
      #!/bin/sh
      # Hostile: starts a child in a session of its own that would run on for five minutes, holding
      # stdout open, waits until it runs, then ends OK.
      setsid sh -c 'touch "$TMPDIR/child-runs"; sleep 300; :' "$PWD/left-behind" &
      until [ -e "$TMPDIR/child-runs" ]; do sleep 0.05; done
      echo "PBX OK - $1:$2 answers"
      """
    When certify-plugin runs "./check_daemon.sh {host} {port}" on the scenario "healthy"
    Then PLUGIN-EXIT-CODE passes, judged on the run "healthy"
    And no run of the plug-in took more than 5 seconds
    And no process the plug-in started is still running
