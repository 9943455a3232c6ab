import csv
import io
import math

import pandas
import pytest

import podscope
from conftest import PRESET, cli_message


def test_sweep_is_the_cli_csv(cli):
    frame = podscope.sweep(preset=PRESET, chips=[256, 1024, 4096], global_batch=[4096, 8192])
    status, out, err = cli("sweep", "--preset", PRESET, "--chips", "256,1024,4096",
                           "--global-batch", "4096,8192", "--csv")
    assert status == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame.columns) == list(rows[0].keys())
    assert len(frame) == len(rows) == 6
    for (_, got), want in zip(frame.iterrows(), rows):
        if want["error"]:
            assert got["error"] == want["error"].replace(";", ",") or \
                got["error"].replace(",", ";") == want["error"]
            assert math.isnan(got["step_time_s"])
            continue
        for column, text in want.items():
            value = got[column]
            if column in ("bottleneck",):
                assert value == text
            elif column == "extrapolated":
                assert value == (text == "yes")
            elif column == "error":
                assert value is None and text == ""
            else:  # the CSV has 9 significant digits
                assert value == pytest.approx(float(text), rel=1e-8), column


def test_sweep_points_are_simulate():
    frame = podscope.sweep(preset=PRESET, chips=[512, 2048])
    for _, row in frame.iterrows():
        alone = podscope.simulate(preset=PRESET, chips=int(row["chips"]))
        assert row["time_to_train_s"] == alone["time_to_train_s"]
        assert row["global_batch"] == alone["scenario"]["global_batch"]


def test_a_refused_point_is_a_row_with_its_error(cli):
    # 16 examples on 4096 chips: fewer examples than replicas.
    frame = podscope.sweep(preset=PRESET, chips=[4096], global_batch=[16])
    _, out, _ = cli("sweep", "--preset", PRESET, "--chips", "4096", "--global-batch", "16", "--json")
    import json
    want = json.loads(out)[0]["error"]
    assert frame.loc[0, "error"] == want
    assert math.isnan(frame.loc[0, "step_time_s"])


def test_sweep_refuses_what_the_cli_refuses(cli):
    _, _, err = cli("sweep", "--preset", PRESET, "--chips", "300")
    with pytest.raises(ValueError) as refused:
        podscope.sweep(preset=PRESET, chips=[300])
    assert str(refused.value) == cli_message(err)
    with pytest.raises(ValueError, match="chips"):
        podscope.sweep(preset=PRESET, chips=[])
    with pytest.raises(ValueError, match="chips"):
        podscope.sweep(preset=PRESET, chips=["many"])


def test_layers_are_the_cli_json(cli_json):
    frame = podscope.layers(preset=PRESET, chips=256)
    want = cli_json("layers", "--preset", PRESET, "--chips", "256")
    assert frame.to_dict("records") == want["layers"]
    assert frame.attrs["examples_per_replica"] == want["examples_per_replica"]
    assert frame.attrs["scenario"] == want["scenario"]


def test_compare_is_the_cli_json(cli_json):
    frame = podscope.compare(preset="mlperf07-resnet50-tf-4096", chips=256)
    rows = cli_json("compare", "--preset", "mlperf07-resnet50-tf-4096", "--chips", "256")
    assert list(frame["hardware"]) == [r["hardware"] for r in rows]
    assert frame["own"].sum() == 1
    for (_, got), want in zip(frame.iterrows(), rows):
        if "error" in want:
            assert got["error"] == want["error"]
            assert math.isnan(got["step_time_s"])
            continue
        assert got["step_time_s"] == pytest.approx(want["step_time_s"], rel=1e-12)
        assert got["chip_seconds"] == pytest.approx(256 * got["time_to_train_s"], rel=1e-12)
        assert got["slices"] == want["slices"]
        assert got["slice"] == want["slice"]


def test_compare_at_4096_chips_runs_multislice_where_a_pod_is_smaller(cli_json):
    """At 4096 chips a machine whose largest slice is smaller runs copies of it over the
    data-centre network: its row is ``simulate`` on one slice with ``slices``."""
    preset = "mlperf07-resnet50-tf-4096"
    frame = podscope.compare(preset=preset, dcn_bw=12.5)
    rows = cli_json("compare", "--preset", preset, "--dcn-bw", "12.5")
    for (_, got), want in zip(frame.iterrows(), rows):
        assert got["hardware"] == want["hardware"]
        if want["slices"] is not None:
            assert got["slices"] == want["slices"]
            assert got["slice"] == want["slice"]
    multislice = frame[frame["slices"] > 1]
    assert len(multislice) > 0
    for _, row in multislice.iterrows():
        dims = [int(d) for d in row["slice"].split("x")]
        assert math.prod(dims) * row["slices"] == 4096
        one = podscope.simulate(preset=preset, hardware=row["hardware"], chips=math.prod(dims),
                                slices=int(row["slices"]), dcn_bw=12.5)
        assert row["step_time_s"] == pytest.approx(one["step_time_s"], rel=1e-12)
        assert one["dcn_sync_s"] > 0
