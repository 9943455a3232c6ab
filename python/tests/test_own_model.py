"""A model of one's own from Python (docs/workloads.md): the same object as the command line,
with or without a preset."""
import os

import pytest

import podscope
from conftest import PRESET, cli_message

ONNX = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "onnx",
                    "resnet50.onnx")


def keys(value, path=""):
    """Every key path of a nested dict ("breakdown.compute"), lists by their first item."""
    if isinstance(value, dict):
        out = set()
        for k, v in value.items():
            out |= {path + k} | keys(v, path + k + ".")
        return out
    if isinstance(value, list) and value:
        return keys(value[0], path + "[].")
    return set()


@pytest.mark.parametrize("args, settings", [
    (["--preset", PRESET], {"preset": PRESET}),
    (["--preset", "mlperf07-resnet50-tf2-16", "--workload", ONNX],
     {"preset": "mlperf07-resnet50-tf2-16", "workload": ONNX}),
    (["--workload", ONNX, "--chips", "16", "--global-batch", "512"],
     {"workload": ONNX, "chips": 16, "global_batch": 512}),
])
def test_simulate_has_the_cli_keys(cli_json, args, settings):
    mine = podscope.simulate(**settings)
    cli = cli_json("simulate", *args)
    assert keys(mine) == keys(cli)
    assert mine == cli


def test_an_imported_model_reports_what_a_model_of_ones_own_needs():
    got = podscope.simulate(workload=ONNX, chips=16, global_batch=512)
    # torchvision's ResNet-50 (its documentation's parameter count).
    assert got["parameters"] == 25_557_032
    assert got["time_to_train_s"] is None
    assert "--train-steps" in got["time_to_train_missing"]
    assert 0 < got["model_flops_utilization"] < 1
    with_steps = podscope.simulate(workload=ONNX, chips=16, global_batch=512, train_steps=1000)
    assert with_steps["time_to_train_s"] >= 1000 * with_steps["train_step_time_s"]


def test_a_model_alone_takes_the_stated_defaults():
    # docs/settings.md: the framework of a model given alone is the table's standalone value.
    framework = next(s for s in podscope.settings() if s["key"] == "framework")
    alone = podscope.simulate(workload=ONNX, chips=16, global_batch=512)
    assert framework["default"].startswith("required; " + alone["scenario"]["framework"])
    assert alone == podscope.simulate(workload=ONNX, chips=16, global_batch=512,
                                      framework=alone["scenario"]["framework"])


@pytest.mark.parametrize("args, settings", [
    (["--workload", ONNX, "--chips", "16"], {"workload": ONNX, "chips": 16}),
    (["--workload", ONNX, "--global-batch", "512"], {"workload": ONNX, "global_batch": 512}),
    (["--chips", "16", "--global-batch", "512"], {"chips": 16, "global_batch": 512}),
])
def test_a_model_alone_without_its_required_settings_is_refused_as_by_the_cli(cli, args,
                                                                              settings):
    status, _, err = cli("simulate", *args)
    assert status == 2
    with pytest.raises(ValueError) as refused:
        podscope.simulate(**settings)
    assert str(refused.value) == cli_message(err)


def test_tune_searches_a_model_file_as_the_cli(cli_json):
    mine = podscope.tune(model=ONNX, chips=16, top=1, fix={"model_parallel": "none",
                                                           "global_batch": 4096},
                         train_examples=1.28e8)
    cli = cli_json("tune", "--model", ONNX, "--chips", "16", "--top", "1", "--fix",
                   "model_parallel=none", "--fix", "global_batch=4096", "--train-examples",
                   "1.28e8")
    assert mine == cli
    assert mine["top"][0]["steps"] == 31250  # 1.28e8 examples over 4096, rounded up
