import inspect

import pytest

import podscope
from conftest import PRESET, cli_message


def test_simulate_is_the_cli_json(cli_json):
    assert podscope.simulate(preset=PRESET) == cli_json("simulate", "--preset", PRESET)


def test_settings_by_keyword_are_the_cli_flags(cli_json):
    got = podscope.simulate(preset=PRESET, chips=256, global_batch=4096, wus=False, chunks="8")
    want = cli_json("simulate", "--preset", PRESET, "--chips", "256", "--global-batch", "4096",
                    "--wus", "off", "--chunks", "8")
    assert got == want
    assert got["chips"] == 256 and got["scenario"]["global_batch"] == 4096


def test_fewer_chips_take_longer_per_step():
    # The same global batch on 16 times fewer chips: 16 times the examples per chip and step.
    full = podscope.simulate(preset=PRESET)
    small = podscope.simulate(preset=PRESET, chips=256)
    assert small["step_time_s"] > full["step_time_s"]
    assert sum(full["breakdown"].values()) == pytest.approx(full["step_time_s"], rel=1e-9)


def test_every_setting_with_a_flag_is_a_keyword(cli):
    table = podscope.settings()
    keywords = set(inspect.signature(podscope.simulate).parameters)
    for setting in table:
        if not setting["flag"]:
            continue
        assert setting["keyword"] in keywords, setting["key"]
        # Its example as the CLI takes it: the same configuration, or the same refusal.
        value = setting["example"]
        status, _, err = cli("simulate", "--preset", PRESET, "--" + setting["flag"], value)
        try:
            podscope.simulate(preset=PRESET, **{setting["keyword"]: value})
            assert status == 0, (setting["flag"], err)
        except ValueError as e:
            assert status == 2 and str(e) == cli_message(err), setting["flag"]


@pytest.mark.parametrize("settings", [{"chunks": "x"}, {"chips": 3}, {"wus": "maybe"},
                                      {"global_batch": 1.5}, {"link_bw": -1}])
def test_bad_values_raise_the_cli_message(cli, settings):
    (keyword, value), = settings.items()
    text = {True: "on", False: "off"}.get(value, str(value))
    status, _, err = cli("simulate", "--preset", PRESET, "--" + keyword.replace("_", "-"), text)
    assert status == 2
    with pytest.raises(ValueError) as refused:
        podscope.simulate(preset=PRESET, **settings)
    assert str(refused.value) == cli_message(err)


def test_a_source_is_required_and_unique(cli):
    _, _, err = cli("simulate")
    with pytest.raises(ValueError) as refused:
        podscope.simulate()
    assert str(refused.value) == cli_message(err)
    with pytest.raises(ValueError, match="preset"):
        podscope.simulate(preset=PRESET, config="x.json")
    with pytest.raises(ValueError, match="unknown preset|preset"):
        podscope.simulate(preset="no-such-preset")


def test_unknown_keyword_names_it():
    with pytest.raises(ValueError, match=r"^chip: unknown setting; did you mean 'chips'\?"):
        podscope.simulate(preset=PRESET, chip=256)


def test_configuration_round_trips_through_a_file(tmp_path):
    config = podscope.configuration(preset=PRESET, chips=1024)
    path = tmp_path / "bert.json"
    import json
    path.write_text(json.dumps(config))
    assert podscope.configuration(config=str(path)) == config
    assert podscope.simulate(config=str(path)) == podscope.simulate(preset=PRESET, chips=1024)


def test_presets_are_the_clis(cli):
    _, out, _ = cli("presets")
    for name in podscope.presets():
        assert name in out
    assert PRESET in podscope.presets()
