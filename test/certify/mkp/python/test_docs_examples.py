"""The runner and the stand-in on the `myhostgroups` example of Checkmk's plug-in article,
rewritten by hand (fixtures/docs-myhostgroups): the services the article says appear, with the
states its levels give, and the two intermediate steps of the article that the rules reject."""

import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from _paths import FIXTURES, PYTHON

EXAMPLE = FIXTURES / "docs-myhostgroups"
AGENT_OUTPUT = (EXAMPLE / "agent-output.txt").read_text()


def run(plugins_dir: Path, text: str = AGENT_OUTPUT) -> dict:
    request = {
        "pluginsDir": str(plugins_dir),
        "now": 1_700_000_000,
        "texts": [{"label": "docs", "text": text}],
        "probes": {"missingItem": True, "malformed": True, "discoverTwice": True},
    }
    done = subprocess.run(
        [sys.executable, "-I", "-B", str(PYTHON / "run_agent_plugins.py")],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


def variant(test: unittest.TestCase, replace: str, by: str) -> Path:
    """A copy of the example with one text replaced (an intermediate step of the article),
    removed when the test ends."""
    root = Path(tempfile.mkdtemp(prefix="docs-myhostgroups-"))
    test.addCleanup(shutil.rmtree, root, True)
    shutil.copytree(EXAMPLE / "cmk_addons_plugins", root / "cmk_addons_plugins")
    source = root / "cmk_addons_plugins" / "myhostgroups" / "agent_based" / "myhostgroups.py"
    text = source.read_text()
    assert replace in text, replace
    source.write_text(text.replace(replace, by))
    return root / "cmk_addons_plugins"


class DocsExampleTest(unittest.TestCase):
    def test_the_article_agent_output_is_cut_at_its_separator(self):
        outcome = run(EXAMPLE / "cmk_addons_plugins")
        self.assertEqual(outcome["load"]["errors"], [])
        self.assertEqual(outcome["load"]["problems"], [])
        self.assertEqual(outcome["load"]["sections"], ["myhostgroups"])
        self.assertEqual(outcome["runs"][0]["sectionsParsed"], ["myhostgroups"])

    def test_services_and_states_as_the_article_describes(self):
        run_ = run(EXAMPLE / "cmk_addons_plugins")["runs"][0]
        services = {s["name"]: s for s in run_["services"]}
        self.assertEqual(sorted(services), ["Host group Hamburg", "Host group Munich", "Host group check_mk"])
        default = services["Host group check_mk"]
        self.assertEqual(default["state"], 2)
        self.assertEqual(default["results"][0]["summary"], "Default group is not empty; Current member list: localhost")
        # Hamburg: 2 of 3 hosts UP (66.67 % < 80 %) is CRIT; Munich: all UP, 144 of 180 services
        # OK (80 %) is below 90 %: WARN, the levels being reached at the threshold.
        self.assertEqual(services["Host group Hamburg"]["state"], 2)
        self.assertEqual(services["Host group Munich"]["state"], 1)
        munich = services["Host group Munich"]
        self.assertEqual(munich["results"][0]["summary"], "3 hosts in this group")
        self.assertEqual(munich["results"][0]["details"], "3 hosts in this group: myhost3,myhost2,myhost1")
        self.assertEqual(munich["results"][1]["summary"], "", "UP hosts at 100 % is an OK notice")
        self.assertEqual(munich["results"][2]["summary"], "OK services: 80.00 (warn/crit below 90.00/80.00)")
        metrics = {m["name"]: m for m in munich["metrics"]}
        self.assertEqual(metrics["hosts_up_perc"]["value"], 100.0)
        self.assertEqual(metrics["hosts_up_perc"]["boundaries"], [0.0, 100.0])
        self.assertEqual(metrics["num_services_ok"]["value"], 144.0)

    def test_probes_on_the_final_step(self):
        run_ = run(EXAMPLE / "cmk_addons_plugins")["runs"][0]
        self.assertTrue(run_["discoveryRepeat"]["same"])
        (missing,) = run_["missingItem"]
        self.assertEqual((missing["results"], missing["error"]), ([], None))
        (malformed,) = run_["malformed"]
        self.assertEqual(malformed["raised"]["type"], "ValueError", "int('x') raises on a malformed count")

    def test_the_article_missing_item_step_makes_up_a_result(self):
        plugins = variant(
            self,
            "    if group is None:\n        return\n",
            '    if group is None:\n        yield Result(state=State.CRIT, summary="Group is empty or has been deleted")\n        return\n',
        )
        (missing,) = run(plugins)["runs"][0]["missingItem"]
        self.assertEqual(missing["results"][0]["summary"], "Group is empty or has been deleted")

    def test_the_article_bare_levels_tuple_is_refused_by_check_levels(self):
        plugins = variant(self, 'levels_lower=("fixed", (90.0, 80.0)),\n        metric_name="hosts_up_perc"', 'levels_lower=(90.0, 80.0),\n        metric_name="hosts_up_perc"')
        errors = run(plugins)["runs"][0]["errors"]
        self.assertEqual({e["type"] for e in errors}, {"TypeError"})
        self.assertIn("Incorrect level parameters", errors[0]["message"])

    def test_a_parse_function_with_another_argument_name_does_not_load(self):
        plugins = variant(self, "def parse_myhostgroups(string_table):\n    ", "def parse_myhostgroups(info):\n    string_table = info\n    ")
        problems = run(plugins)["load"]["problems"]
        self.assertTrue(any("string_table" in p for p in problems), problems)


if __name__ == "__main__":
    unittest.main()
