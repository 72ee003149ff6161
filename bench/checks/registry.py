"""The registry of check factories, and a check built from its data.

A check is `(answer, workspace) -> None` when the task was done right, else a line saying what is wrong. A task set
names its check as data: the factory's registered name and its arguments by parameter name, plain values only
(`{ name = "file_holds", path = "result.txt", value = 4140 }`). Building it turns each value into the type the
factory's signature declares: a nested check's data into a check, an ISO date into a date, a list into a tuple or a
set, a decimal's text into a `Decimal`.
"""

from __future__ import annotations

import datetime as dt
import inspect
import typing
from collections.abc import Callable, Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

Check = Callable[[str, Path], str | None]  # (answer, workspace) -> None when right, else what is wrong
Factory = Callable[..., Check]

FACTORIES: dict[str, Factory] = {}
NAME = "name"  # the key of a check's data that names its factory


class CheckDataError(ValueError):
    """A check's data names no registered factory, or its arguments do not fit the factory's."""


def register(factory: Factory) -> Factory:
    """Register `factory` under its own name (a decorator)."""
    if factory.__name__ in FACTORIES:
        raise ValueError(f"a check factory named {factory.__name__} is registered already")
    FACTORIES[factory.__name__] = factory
    return factory


def build_check(data: Mapping[str, Any]) -> Check:
    """The check `data` describes: its factory called with its arguments, each of the type the factory declares."""
    factory = FACTORIES.get(str(data.get(NAME)))
    if factory is None:
        raise CheckDataError(f"no check factory named {data.get(NAME)!r}")
    hints = typing.get_type_hints(factory)
    given = {key: value for key, value in data.items() if key != NAME}
    positional: list[Any] = []
    keywords: dict[str, Any] = {}
    for parameter in inspect.signature(factory).parameters.values():
        hint = hints.get(parameter.name, Any)
        if parameter.kind is parameter.VAR_POSITIONAL:
            positional.extend(_coerce(value, hint) for value in given.pop(parameter.name, []))
        elif parameter.name in given:
            value = _coerce(given.pop(parameter.name), hint)
            if parameter.kind is parameter.KEYWORD_ONLY:
                keywords[parameter.name] = value
            else:
                positional.append(value)
        elif parameter.default is parameter.empty:
            raise CheckDataError(f"check {factory.__name__} needs its argument {parameter.name}")
        elif parameter.kind is not parameter.KEYWORD_ONLY:
            positional.append(parameter.default)
    if given:
        raise CheckDataError(f"check {factory.__name__} takes no argument {', '.join(sorted(given))}")
    return factory(*positional, **keywords)


def _coerce(value: Any, hint: Any) -> Any:
    """`value`, read from data, as the type `hint` declares."""
    if hint == Check:
        return build_check(value)
    if hint is dt.date:
        return dt.date.fromisoformat(value)
    if hint is Decimal:
        return Decimal(value)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is list:
        return [_coerce(item, args[0]) for item in value]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_coerce(item, args[0]) for item in value)
        return tuple(_coerce(item, arg) for item, arg in zip(value, args, strict=True))
    if origin in (set, frozenset):
        return origin(_coerce(item, args[0]) for item in value)
    if origin is dict:
        return {key: _coerce(item, args[1]) for key, item in value.items()}
    return value  # a plain value (a union such as `float | str` holds one of its members already)
