import json
import os
import subprocess

import pytest

PRESET = "mlperf07-bert-jax-4096"


@pytest.fixture(scope="session")
def cli():
    """Runs podscope-cli (PODSCOPE_CLI, else build/bin/podscope-cli): returns (exit status,
    stdout, stderr)."""
    program = os.environ.get("PODSCOPE_CLI") or os.path.join(
        os.path.dirname(__file__), "..", "..", "build", "bin", "podscope-cli")

    def run(*args):
        done = subprocess.run([program, *args], capture_output=True, text=True, timeout=600)
        return done.returncode, done.stdout, done.stderr

    return run


@pytest.fixture(scope="session")
def cli_json(cli):
    def run(*args):
        status, out, err = cli(*args, "--json")
        assert status == 0, err
        return json.loads(out)

    return run


def cli_message(stderr):
    """The CLI's message without its 'podscope-cli: error: ' prefix."""
    prefix = "podscope-cli: error: "
    assert stderr.startswith(prefix), stderr
    return stderr[len(prefix):].strip()
