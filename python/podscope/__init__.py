"""PodScope from Python: how ML training scales on a TPU-v3 multipod (docs/python.md).

Every function takes the configuration as ``podscope-cli`` does: ``preset=`` (a bundled MLPerf
preset, see :func:`presets`) or ``config=`` (a configuration file), and any setting of
docs/settings.md as a keyword argument named after its flag (``--global-batch`` is
``global_batch=``). Bad input raises ``ValueError`` with podscope-cli's message.
"""

import inspect

from . import _podscope

__all__ = ["presets", "settings", "configuration", "simulate", "sweep", "layers", "timeline",
           "tune"]


def presets():
    """The bundled MLPerf presets' names, as ``podscope-cli presets`` lists them."""
    return _podscope.presets()


def settings():
    """Every setting of a configuration (docs/settings.md): a list of dicts with its file key,
    flag, keyword (the flag as a Python name), type, unit, accepted values, default and
    description."""
    table = _podscope.settings()
    for s in table:
        s["keyword"] = s["flag"].replace("-", "_")
    return table


def _source(preset, config):
    return ("" if preset is None else str(preset)), ("" if config is None else str(config))


def configuration(preset=None, config=None, **settings):
    """The resolved configuration in the file format (what ``--save-config`` writes)."""
    return _podscope.configuration(*_source(preset, config), settings)


def simulate(preset=None, config=None, **settings):
    """Step time and time to train of one configuration: a dict with the keys of
    ``podscope-cli simulate --json`` (``step_time_s``, ``time_to_train_s``, ``breakdown``,
    ``scenario``, ``what_if``, ...)."""
    return _podscope.simulate(*_source(preset, config), settings)


def _counts(name, values):
    if values is None:
        return []
    if isinstance(values, (bool, float, str)):
        raise ValueError(f"{name}: give whole numbers (a number or a list), not {values!r}")
    if isinstance(values, int):
        return [values]
    counts = list(values)
    for v in counts:
        if isinstance(v, bool) or not isinstance(v, int) and not hasattr(v, "__index__"):
            raise ValueError(f"{name}: {v!r} is not a whole number")
    return [int(v) for v in counts]


def sweep(preset=None, config=None, chips=None, global_batch=None, **settings):
    """Time to train over chip counts (standard slices) and global batches: a pandas DataFrame
    with the columns of ``podscope-cli sweep --csv``, one row per point, chips first. A point the
    model refuses has its message in ``error`` and no numbers."""
    import pandas

    rows = _podscope.sweep(*_source(preset, config), settings, _counts("chips", chips),
                           _counts("global-batch", global_batch))
    frame = pandas.DataFrame(rows, columns=_podscope.sweep_columns())
    # Numbers stay numbers where a point was refused (NaN), whatever the other rows hold.
    text = {"chips", "global_batch", "bottleneck", "extrapolated", "error"}
    numbers = [c for c in frame.columns if c not in text]
    frame[numbers] = frame[numbers].astype(float)
    return frame


def compare(preset=None, config=None, **settings):
    """The configuration on every bundled machine at the same chips and global batch (each on
    its standard slice of that size, or, where its pods are smaller, on ``slices`` copies of its
    largest ``slice`` that divides them, joined over the data-centre network): a pandas DataFrame
    with the keys of ``podscope-cli compare --json``, one row per machine (``hardware``,
    ``slices``, ``slice``, ``own``, ``step_time_s``, ``time_to_train_s``, ``chip_seconds``); a
    machine that refuses it has its message in ``error`` and no numbers."""
    import pandas

    rows = _podscope.compare(*_source(preset, config), settings)
    frame = pandas.DataFrame(rows, columns=["hardware", "chips", "slices", "slice",
                                            "global_batch", "own", "step_time_s",
                                            "time_to_train_s", "chip_seconds", "error"])
    numbers = ["step_time_s", "time_to_train_s", "chip_seconds"]
    frame[numbers] = frame[numbers].astype(float)
    return frame


def layers(preset=None, config=None, **settings):
    """Per-layer time, FLOPs and HBM bytes on one core for one step: a pandas DataFrame with the
    columns of ``podscope-cli layers --csv``; ``attrs`` holds ``scenario`` and
    ``examples_per_replica``."""
    import pandas

    result = _podscope.layers(*_source(preset, config), settings)
    frame = pandas.DataFrame(result["layers"],
                             columns=["name", "group", "type", "forward_s", "backward_s",
                                      "recompute_s", "spared_bytes", "flops", "hbm_bytes",
                                      "kernels", "bound", "mxu_utilisation",
                                      "arithmetic_intensity"])
    frame.attrs["scenario"] = result["scenario"]
    frame.attrs["examples_per_replica"] = result["examples_per_replica"]
    return frame


def timeline(preset=None, config=None, slow_chip=None, slow_host=None, slow_factor=None,
             host_jitter=0.0, steps=1, seed=1, with_evaluation=False, contention=True,
             **settings):
    """Every chip through a training step (docs/step-timeline.md): a dict with the keys of
    ``podscope-cli timeline --json``. The options are the command's flags (``slow_chip`` is
    ``--slow-chip``; ``contention=False`` is ``--no-contention``)."""
    options = _podscope.TimelineRequest()
    options.slow_chip = slow_chip
    options.slow_host = slow_host
    options.slow_factor = slow_factor
    options.host_jitter = host_jitter
    options.steps = steps
    options.seed = seed
    options.with_evaluation = with_evaluation
    options.contention = contention
    return _podscope.timeline(*_source(preset, config), settings, options)


def tune(model=None, preset=None, framework=None, chips=None, objective="time-to-train",
         goal=None, fidelity="analytic", pareto="chips", top=10, fix=None,
         allow_extrapolation=False, threads=None, train_steps=None, train_examples=None):
    """The fastest configurations of a model (docs/tune.md): a dict with the keys of
    ``podscope-cli tune --json``. ``model`` is a bundled model's name or a model file (.onnx,
    config.json, a workload .json); ``chips`` is a count, a list or a range text ("256..4096");
    ``fix`` pins dimensions: ``{"gradient.chunks": 8}``; ``train_steps`` or ``train_examples``
    give a model without convergence data its run length."""
    request = _podscope.TuneRequest()
    request.model = model or ""
    request.preset = preset or ""
    request.framework = framework or ""
    if isinstance(chips, str):
        request.chips = chips
    else:
        request.chips = ",".join(str(c) for c in _counts("chips", chips))
    request.objective = objective
    request.goal = goal
    request.fidelity = fidelity
    request.pareto = pareto
    request.top = top
    request.fixes = [(str(k), _text(v)) for k, v in (fix or {}).items()]
    request.allow_extrapolation = allow_extrapolation
    request.threads = threads
    request.settings = [(flag, _text(v)) for flag, v in
                        (("train-steps", train_steps), ("train-examples", train_examples))
                        if v is not None]
    return _podscope.tune(request)


def _text(value):
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _with_settings(function, exclude=()):
    """Lists the settings in the function's signature and help, from the settings table, so that
    help() and editors show every keyword the function takes."""
    signature = inspect.signature(function)
    parameters = [p for p in signature.parameters.values() if p.kind != p.VAR_KEYWORD]
    taken = {p.name for p in parameters}
    lines = []
    for s in settings():
        if not s["flag"] or s["keyword"] in exclude or s["keyword"] in taken:
            continue
        parameters.append(inspect.Parameter(s["keyword"], inspect.Parameter.KEYWORD_ONLY,
                                            default=None))
        lines.append(f"    {s['keyword']}: {s['help']}")
    function.__signature__ = signature.replace(parameters=parameters)
    function.__doc__ += "\n\nSettings (docs/settings.md; None: the configuration's own):\n" + \
        "\n".join(lines) + "\n"
    return function


for _function in (configuration, simulate, compare, layers, timeline):
    _with_settings(_function)
_with_settings(sweep, exclude=("chips", "global_batch"))
del _function
