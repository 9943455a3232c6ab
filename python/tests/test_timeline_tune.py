import pytest

import podscope
from conftest import PRESET, cli_message


def test_timeline_is_the_cli_json(cli_json):
    got = podscope.timeline(preset=PRESET, chips=256, slow_chip=3, steps=2)
    want = cli_json("timeline", "--preset", PRESET, "--chips", "256", "--slow-chip", "3",
                    "--steps", "2")
    assert got == want
    assert got["reference_chip"] == 3 and len(got["step_times_s"]) == 2


def test_a_slow_chip_slows_the_step():
    plain = podscope.timeline(preset=PRESET, chips=256)
    slow = podscope.timeline(preset=PRESET, chips=256, slow_chip=3, slow_factor=2)
    assert slow["step_s"] > plain["step_s"]


def test_timeline_refuses_what_the_cli_refuses(cli):
    _, _, err = cli("timeline", "--preset", PRESET, "--chips", "256", "--slow-chip", "256")
    with pytest.raises(ValueError) as refused:
        podscope.timeline(preset=PRESET, chips=256, slow_chip=256)
    assert str(refused.value) == cli_message(err)


TUNE = ["--model", "resnet50", "--chips", "256,512", "--top", "3", "--threads", "2",
        "--fix", "gradient.chunks=4", "--fix", "gradient.algorithm=2d"]


def test_tune_is_the_cli_json(cli_json):
    got = podscope.tune(model="resnet50", chips=[256, 512], top=3, threads=2,
                        fix={"gradient.chunks": 4, "gradient.algorithm": "2d"})
    assert got == cli_json("tune", *TUNE)
    assert len(got["top"]) == 3


def test_tune_refuses_what_the_cli_refuses(cli):
    _, _, err = cli("tune", "--model", "resnet5", "--chips", "256")
    with pytest.raises(ValueError) as refused:
        podscope.tune(model="resnet5", chips=256)
    assert str(refused.value) == cli_message(err)
