"""The type stubs name what the module has: every class, function and method in
`_marionette.pyi` exists, and every public name of the module is in the stubs."""

import ast
from pathlib import Path

import marionette
from marionette import _marionette

STUBS = Path(marionette.__file__).with_name("_marionette.pyi")


def stubbed():
    tree = ast.parse(STUBS.read_text())
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            members = [
                item.name if isinstance(item, ast.FunctionDef) else item.target.id
                for item in node.body
                if isinstance(item, (ast.FunctionDef, ast.AnnAssign))
            ]
            yield node.name, members
        elif isinstance(node, ast.FunctionDef):
            yield node.name, []


def test_every_stubbed_name_exists():
    for name, members in stubbed():
        assert hasattr(_marionette, name), name
        for member in members:
            assert hasattr(getattr(_marionette, name), member), f"{name}.{member}"


def test_every_public_name_is_stubbed_and_documented():
    names = dict(stubbed())
    for name in dir(_marionette):
        if name.startswith("__"):
            continue
        assert name in names, f"{name} has no stub"
        assert getattr(_marionette, name).__doc__, f"{name} has no docstring"
