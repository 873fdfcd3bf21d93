"""doc/command_line.rst kept up with ``--help``: every option of every
command named in the command's section, trec's default measures as the code
has them, and the page's self-contained console examples printing what the
page says."""

import argparse
import re
import shlex

import pytest

from sklearn_rankeval._cli import main
from sklearn_rankeval._cli._main import build_parser
from sklearn_rankeval._cli._trec import MEASURES, OFFICIAL
from tests.conftest import REPO_ROOT

PAGE = (REPO_ROOT / "doc" / "command_line.rst").read_text()
#: sections (by label) that belong to a command besides ``cli-<command>``
SUBSECTIONS = {"evaluate": ["cli-svmlight", "cli-bad-input"]}
#: the section every command shares (--quiet)
SHARED = ["cli-progress"]


def _sections():
    """``{label: text}`` of the page, split at its ``.. _label:`` lines."""
    parts = re.split(r"^\.\. _([\w-]+):\s*$", PAGE, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def _subparsers():
    parser = build_parser()
    action = next(a for a in parser._actions
                  if isinstance(a, argparse._SubParsersAction))
    return action.choices


@pytest.mark.parametrize("command", list(_subparsers()))
def test_every_option_is_on_the_page(command):
    sections = _sections()
    labels = [f"cli-{command}", *SUBSECTIONS.get(command, []), *SHARED]
    assert f"cli-{command}" in sections, f"no section for rankeval {command}"
    text = "".join(sections[label] for label in labels)
    for action in _subparsers()[command]._actions:
        options = action.option_strings  # one of its names (-m or --metric)
        if not options or "--help" in options:
            continue
        assert any(f"``{option}" in text for option in options), \
            (command, options)


def test_trec_default_and_every_measure_on_the_page():
    text = _sections()["cli-trec"]
    found = re.search(r"The default is trec_eval's ``official`` set, .*?:(.*?)\.\s",
                      text, flags=re.S)
    assert found
    listed = re.findall(r"``(\w+)``", found.group(1))
    assert tuple(listed) == OFFICIAL
    for name in MEASURES:
        assert f"``{name}" in text, name


def _console_blocks():
    """The ``code-block:: console`` blocks, as lists of lines (dedented)."""
    blocks = re.findall(r"\.\. code-block:: console\n\n((?:    .*\n|\n)+)", PAGE)
    return [[line[4:] for line in block.rstrip("\n").split("\n")]
            for block in blocks]


def _steps(lines):
    """``(command, output lines)`` of a console block (``\\`` continues)."""
    steps, i = [], 0
    while i < len(lines):
        command = lines[i][2:]
        while command.endswith("\\"):
            i += 1
            command = command[:-1] + " " + lines[i].strip()
        i += 1
        out = []
        while i < len(lines) and not lines[i].startswith("$ "):
            out.append(lines[i])
            i += 1
        steps.append((command.split("#")[0].strip(), out))
    return steps


def _self_contained():
    """The blocks whose every input file is shown by a ``cat``."""
    out = []
    for block in _console_blocks():
        steps = _steps(block)
        shown = {cmd.split()[1] for cmd, _ in steps if cmd.startswith("cat ")}
        runs = [cmd for cmd, _ in steps if cmd.startswith("rankeval ")]
        files = {w for cmd in runs for w in shlex.split(cmd)
                 if re.search(r"\.(csv|tsv|svm|txt)$", w)}
        if runs and files <= shown:
            out.append(steps)
    return out


def test_the_page_has_self_contained_examples():
    # evaluate --segment --confidence, svmlight, evaluate-recommendations
    assert len(_self_contained()) >= 3


@pytest.mark.parametrize("steps", _self_contained(),
                         ids=lambda steps: steps[-1][0][:40])
def test_console_examples_print_what_the_page_shows(steps, tmp_path,
                                                    monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for command, output in steps:
        if command.startswith("cat "):
            (tmp_path / command.split()[1]).write_text("\n".join(output) + "\n")
            continue
        assert main(shlex.split(command)[1:]) == 0
        printed = capsys.readouterr().out
        assert [line.rstrip() for line in printed.rstrip("\n").split("\n")] \
            == output, command
