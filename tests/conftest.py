"""Shared fixtures: the toy game is registered for core and shell tests."""

from engine.core import registry

registry.register("toy", "tests.toy_game")
