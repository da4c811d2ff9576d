"""``fivehundred serve --config FILE``: a TOML file of settings below the options and the
environment variables (issue 34), as docs/howto/operate-the-server.md promises."""

from __future__ import annotations

import argparse
import os
import re
import tomllib
from pathlib import Path

import pytest

from fivehundred.cli._args import build_parser
from fivehundred.server.settings import (
    CONFIG_KEYS,
    Settings,
    add_arguments,
    apply_config,
    from_arguments,
    read_config,
)
from subprocesses import run_python

DOC = Path(__file__).parents[1] / "docs" / "howto" / "operate-the-server.md"
KEY = "k" * 24


def serve_args(argv: list[str]) -> argparse.Namespace:
    args = build_parser().parse_args(["serve", *argv])
    return args


def settled(argv: list[str], environ: dict[str, str]) -> tuple[argparse.Namespace, Settings]:
    """The options and settings of ``fivehundred serve ARGV`` under ``environ``."""
    args = serve_args(argv)
    apply_config(args, environ)
    return args, from_arguments(args, environ)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "serve.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_option_wins_then_the_variable_then_the_file_then_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = write(
        tmp_path,
        'db = "from-file.db"\nport = 9000\ncreate_rate = 5\nidle_expiry = 60\n'
        "create_needs_key = false\nmax_tables = 50\n",
    )
    monkeypatch.setenv("FIVEHUNDRED_IDLE_EXPIRY", "120")
    monkeypatch.setenv("FIVEHUNDRED_MAX_TABLES", "70")
    args, settings = settled(
        ["--config", str(config), "--create-rate", "7", "--port", "8600"],
        dict(os.environ),
    )
    assert settings.create_rate == 7  # the option, over the file's 5
    assert args.port == 8600  # the option, over the file's 9000
    assert settings.idle_expiry == 120  # the variable, over the file's 60
    assert settings.max_tables == 70  # the variable, over the file's 50
    assert args.db == "from-file.db"  # the file, over the default
    assert settings.log_level == "info"  # the default
    # an option given with its default's value still wins over the file
    args, settings = settled(["--config", str(config), "--create-rate", "30"], {})
    assert settings.create_rate == 30 and settings.idle_expiry == 60


def test_the_file_can_be_named_by_its_variable(tmp_path: Path) -> None:
    config = write(tmp_path, 'log_level = "warning"\ntrusted_proxies = ["10.0.0.1", "10.0.0.2"]\n')
    parser = argparse.ArgumentParser()
    environ = {"FIVEHUNDRED_CONFIG": str(config)}
    add_arguments(parser, environ)
    args = parser.parse_args([])
    apply_config(args, environ)
    settings = from_arguments(args, environ)
    assert (settings.log_level, settings.trusted_proxies) == ("warning", "10.0.0.1,10.0.0.2")


def test_the_key_in_a_variable_is_above_a_key_file_in_the_config(tmp_path: Path) -> None:
    key_file = tmp_path / "key"
    key_file.write_text("f" * 24 + "\n", encoding="utf-8")
    config = write(tmp_path, f'operator_key_file = "{key_file}"\n')
    assert settled(["--config", str(config)], {})[1].operator_key == "f" * 24
    environ = {"FIVEHUNDRED_OPERATOR_KEY": KEY}
    assert settled(["--config", str(config)], environ)[1].operator_key == KEY


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("port = 8500\ncolour = 'red'\n", "unknown settings 'colour'"),
        ('port = "8500"\n', "port must be a port number from 0 to 65535, not '8500'"),
        ("create_rate = -1\n", "create_rate must be a number of 0 or more"),
        ("create_rate = nan\n", "create_rate must be a number of 0 or more"),
        (f"idle_expiry = {'9' * 400}\n", "idle_expiry must be a number of 0 or more"),
        ("workers = true\n", "workers must be a whole number from 1"),
        ("create_needs_key = 1\n", "create_needs_key must be true or false"),
        ('log_level = "loud"\n', "log_level must be one of debug, info, warning, error"),
        ("port = ", "is not TOML"),
        (f'operator_key = "{KEY}"\n', "keep the operator key out of the config file"),
    ],
)
def test_a_bad_config_file_is_one_sentence_naming_it(
    tmp_path: Path, text: str, message: str
) -> None:
    config = write(tmp_path, text)
    with pytest.raises(ValueError, match=re.escape(message)) as raised:
        read_config(config)
    assert str(config) in str(raised.value)
    assert KEY not in str(raised.value)


def test_a_config_file_that_is_not_utf_8_is_named(tmp_path: Path) -> None:
    """Not Python's "'utf-8' codec can't decode byte 0xff" with no file named."""
    config = tmp_path / "serve.toml"
    config.write_bytes(b"port = 8500\n\xff\n")
    with pytest.raises(
        ValueError, match=re.escape(f"--config {config} is not TOML: it is not UTF-8")
    ):
        read_config(config)


def test_serve_stops_on_a_bad_config_file_before_it_starts(tmp_path: Path) -> None:
    config = write(tmp_path, "port = 'x'\n")
    result = run_python(
        ["-m", "fivehundred", "serve", "--config", str(config), "--db", str(tmp_path / "t.db")],
        timeout=60,
    )
    assert result.returncode == 2
    assert f"--config {config}: port must be a port number" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "t.db").exists()
    missing = run_python(
        ["-m", "fivehundred", "serve", "--config", str(tmp_path / "none")], timeout=60
    )
    assert missing.returncode == 2 and "No such file" in missing.stderr


def test_the_docs_example_is_a_config_file_of_every_kind() -> None:
    text = DOC.read_text(encoding="utf-8")
    (example,) = re.findall(r"```toml\n(.*?)```", text, re.DOTALL)
    given = tomllib.loads(example)
    assert set(given) <= set(CONFIG_KEYS)
    assert read_config_text(example) == {
        key: (",".join(value) if isinstance(value, list) else value) for key, value in given.items()
    }
    # every key the file takes is an option in the docs' table
    for option, _ in CONFIG_KEYS.values():
        assert f"`{option}" in text, option
    order = "the option on the command line, then its environment variable, then the config file"
    assert order in " ".join(text.replace("**", "").split())


def read_config_text(text: str) -> dict[str, object]:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "serve.toml"
        path.write_text(text, encoding="utf-8")
        return read_config(path)
