"""The stand-in against the examples and rules of the cmk.agent_based.v2 API reference."""

import unittest

import _paths  # noqa: F401
from cmk.agent_based.v2 import (
    AgentSection,
    CheckPlugin,
    GetRateError,
    InventoryPlugin,
    Metric,
    Result,
    Service,
    ServiceLabel,
    SimpleSNMPSection,
    SNMPSection,
    State,
    check_levels,
    entry_point_prefixes,
    get_average,
    get_rate,
    render,
)


class StateTest(unittest.TestCase):
    def test_worst_orders_unknown_between_warn_and_crit(self):
        self.assertIs(State.worst(State.OK, State.WARN, State.CRIT, State.UNKNOWN), State.CRIT)
        self.assertIs(State.worst(State.OK, State.WARN, State.UNKNOWN), State.UNKNOWN)
        self.assertIs(State.worst(0, 1, State.CRIT), State.CRIT)

    def test_best_is_the_other_end(self):
        self.assertIs(State.best(State.OK, State.WARN, State.CRIT, State.UNKNOWN), State.OK)
        self.assertIs(State.best(State.CRIT, State.UNKNOWN), State.UNKNOWN)

    def test_states_do_not_compare_as_numbers(self):
        with self.assertRaises(TypeError):
            _ = State.CRIT < State.UNKNOWN  # noqa: B015
        self.assertEqual(int(State.UNKNOWN), 3)


class ResultTest(unittest.TestCase):
    def test_exactly_one_of_summary_and_notice(self):
        with self.assertRaises(TypeError):
            Result(state=State.OK)
        with self.assertRaises(TypeError):
            Result(state=State.OK, summary="a", notice="b")

    def test_texts_are_non_empty_and_a_summary_has_no_newline(self):
        with self.assertRaises(ValueError):
            Result(state=State.OK, summary="")
        with self.assertRaises(ValueError):
            Result(state=State.OK, summary="two\nlines")
        with self.assertRaises(TypeError):
            Result(state=0, summary="a number is no State")

    def test_a_notice_shows_in_the_summary_only_when_not_ok(self):
        self.assertEqual(Result(state=State.OK, notice="fine").summary, "")
        self.assertEqual(Result(state=State.OK, notice="fine").details, "fine")
        self.assertEqual(Result(state=State.WARN, notice="a\nb").summary, "a, b")
        self.assertEqual(Result(state=State.OK, summary="s", details="d").details, "d")


class MetricAndServiceTest(unittest.TestCase):
    def test_metric_names_refuse_only_what_the_reference_refuses(self):
        for bad in ("", "with space", "a:b", "a/b", "a\\b"):
            with self.assertRaises(TypeError, msg=bad):
                Metric(bad, 1)
        # Upper case is accepted by the API; the naming guideline is certify-plugin's rule.
        self.assertEqual(Metric("Used_Space", 1).name, "Used_Space")

    def test_metric_values_levels_and_boundaries(self):
        metric = Metric("used_slots_percent", 23, levels=(80, 90), boundaries=(0, 100))
        self.assertEqual((metric.value, metric.levels, metric.boundaries), (23.0, (80.0, 90.0), (0.0, 100.0)))
        self.assertEqual(Metric("x", 1).levels, (None, None))
        with self.assertRaises(TypeError):
            Metric("x", "12")
        with self.assertRaises(TypeError):
            Metric("x", 1, levels=(1, 2, 3))

    def test_service_items_parameters_and_labels(self):
        self.assertEqual(Service(item="disc_name", parameters={}).item, "disc_name")
        self.assertEqual(Service().parameters, {})
        self.assertEqual(Service(labels=[ServiceLabel("k", "v")]).labels, [ServiceLabel("k", "v")])
        for bad in ({"item": ""}, {"item": 7}, {"parameters": []}, {"labels": ["k:v"]}):
            with self.assertRaises(TypeError, msg=str(bad)):
                Service(**bad)


class CheckLevelsTest(unittest.TestCase):
    def test_the_reference_example(self):
        result, metric = check_levels(
            23.0,
            levels_upper=("fixed", (12.0, 42.0)),
            metric_name="temperature",
            label="Fridge",
            render_func=lambda v: "%.1f°" % v,
        )
        self.assertEqual(result.summary, "Fridge: 23.0° (warn/crit at 12.0°/42.0°)")
        self.assertIs(result.state, State.WARN)
        self.assertEqual(metric, Metric("temperature", 23.0, levels=(12.0, 42.0)))

    def test_levels_are_reached_at_the_threshold(self):
        (crit, _m) = check_levels(42.0, levels_upper=("fixed", (12.0, 42.0)), metric_name="t")
        self.assertIs(crit.state, State.CRIT)
        (ok,) = check_levels(11.99, levels_upper=("fixed", (12.0, 42.0)))
        self.assertIs(ok.state, State.OK)
        self.assertEqual(ok.summary, "11.99")

    def test_lower_levels_say_below_and_give_the_metric_no_levels(self):
        result, metric = check_levels(85.0, levels_lower=("fixed", (90.0, 80.0)), metric_name="up", label="UP")
        self.assertIs(result.state, State.WARN)
        self.assertEqual(result.summary, "UP: 85.00 (warn/crit below 90.00/80.00)")
        self.assertEqual(metric.levels, (None, None))
        (at_warn,) = check_levels(90.0, levels_lower=("fixed", (90.0, 80.0)))
        self.assertIs(at_warn.state, State.OK)

    def test_no_levels_and_notice_only(self):
        (result,) = check_levels(5.0, levels_upper=("no_levels", None), notice_only=True, label="L")
        self.assertEqual((result.state, result.summary, result.details), (State.OK, "", "L: 5.00"))

    def test_predictive_levels_add_the_prediction_and_its_metric(self):
        result, metric, prediction = check_levels(
            120.0,
            levels_upper=("predictive", ("load", 100.0, (110.0, 130.0))),
            metric_name="load",
            render_func=lambda v: f"{v:.0f}",
        )
        self.assertIs(result.state, State.WARN)
        self.assertEqual(result.summary, "120 (prediction: 100) (warn/crit at 110/130)")
        self.assertEqual(metric.levels, (110.0, 130.0))
        self.assertEqual(prediction, Metric("predict_load", 100.0))
        (lower,) = [r for r in check_levels(3.0, levels_lower=("predictive", ("load", None, None))) if isinstance(r, Result)]
        self.assertEqual((lower.state, lower.summary), (State.OK, "3.00 (prediction: N/A)"))
        lower_metric = list(check_levels(3.0, levels_lower=("predictive", ("load", 4.0, (2.0, 1.0)))))[1]
        self.assertEqual(lower_metric, Metric("predict_lower_load", 4.0))

    def test_the_v1_bare_tuple_is_refused(self):
        with self.assertRaises(TypeError):
            list(check_levels(85.0, levels_lower=(90.0, 80.0)))


class RenderTest(unittest.TestCase):
    def test_the_reference_examples(self):
        self.assertEqual(render.timespan(1606721), "18 days 14 hours")
        self.assertEqual(render.timespan(0.0001), "100 microseconds")
        self.assertEqual(render.timespan(24 * 60 * 60), "1 day 0 hours")
        self.assertEqual(render.timespan(365 * 24 * 60 * 60), "1 year 0 days")
        self.assertEqual(render.timespan(100 * 365 * 24 * 60 * 60), "100 years 0 days")
        self.assertEqual(render.timespan(0), "0 seconds")
        self.assertEqual(render.time_offset(-0.0001), "-100 microseconds")
        self.assertEqual(render.time_offset(-183600), "-2 days 3 hours")
        self.assertEqual(render.frequency(1e10 / 3.0), "3.33 GHz")
        self.assertEqual(render.disksize(1024), "1.02 kB")
        self.assertEqual(render.bytes(1024**2), "1.00 MiB")
        self.assertEqual(render.filesize(12345678), "12,345,678 B")
        self.assertEqual(render.nicspeed(1050), "8.4 kBit/s")
        self.assertEqual(render.iobandwidth(128), "128 B/s")
        self.assertEqual(render.percent(23.4203245), "23.42%")
        self.assertEqual(render.percent(0.003), "<0.01%")
        self.assertEqual(render.percent(-0.003), "-0.00%")
        self.assertEqual(render.date(None), "never")
        self.assertEqual(render.datetime(None), "never")

    def test_a_negative_timespan_raises(self):
        with self.assertRaises(ValueError):
            render.timespan(-1)


class ValueStoreTest(unittest.TestCase):
    def test_get_rate_follows_the_reference_example(self):
        store = {}
        with self.assertRaises(GetRateError):
            get_rate(store, "my_rate", 10, 23)
        self.assertEqual(store, {"my_rate": (10, 23)})
        self.assertEqual(get_rate(store, "my_rate", 70, 56), 0.55)
        with self.assertRaises(GetRateError):
            get_rate(store, "my_rate", 70, 60)
        with self.assertRaises(GetRateError):
            get_rate(store, "my_rate", 80, 10, raise_overflow=True)

    def test_get_average_starts_at_the_value_and_moves_towards_new_ones(self):
        store = {}
        self.assertEqual(get_average(store, "avg", 0, 10.0, 5), 10.0)
        second = get_average(store, "avg", 60, 20.0, 5)
        self.assertTrue(10.0 < second < 20.0)
        self.assertEqual(get_average(store, "avg", 60, 99.0, 5), second)


class PluginClassesTest(unittest.TestCase):
    def test_entry_point_prefixes(self):
        prefixes = entry_point_prefixes()
        self.assertEqual(prefixes[AgentSection], "agent_section_")
        self.assertEqual(prefixes[CheckPlugin], "check_plugin_")
        self.assertEqual(prefixes[InventoryPlugin], "inventory_plugin_")
        self.assertEqual(prefixes[SNMPSection], "snmp_section_")
        self.assertEqual(prefixes[SimpleSNMPSection], "snmp_section_")

    def test_agent_section_and_check_plugin_keep_their_arguments(self):
        section = AgentSection(name="foo", parse_function=lambda string_table: string_table)
        self.assertIsNone(section.parsed_section_name)
        plugin = CheckPlugin(
            name="foo", service_name="Foo %s", discovery_function=lambda section: [], check_function=lambda item, section: []
        )
        self.assertIsNone(plugin.sections)
        with self.assertRaises(TypeError):
            CheckPlugin(name="foo", service_name="Foo")


if __name__ == "__main__":
    unittest.main()
