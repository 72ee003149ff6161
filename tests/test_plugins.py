"""User tools: a tools module by path, an installed package's entry point, selection by name, merging."""

from __future__ import annotations

import importlib
import textwrap
from pathlib import Path
from typing import Any

import pytest
from langchain_core.tools import BaseTool, tool

from autoagent.acting.plugins import (
    entry_point_tools,
    format_tools,
    load_tools_module,
    merge_tools,
    parse_tool_names,
    select_tools,
)
from autoagent.errors import ConfigurationError

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def write(path: Path, source: str) -> Path:
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


@tool
def shout(text: str) -> str:
    """Upper-case the text."""
    return text.upper()


def test_a_tools_module_gives_module_level_tools_its_tools_list_and_get_tools(tmp_path: Path) -> None:
    module = write(tmp_path / "my_tools.py", '''
        from langchain_core.tools import StructuredTool, tool

        @tool
        def reverse(text: str) -> str:
            """Reverse the text."""
            return text[::-1]

        def _double(n: int) -> int:
            return 2 * n

        TOOLS = [StructuredTool.from_function(_double, name="double", description="Double n.")]

        def _triple(n: int) -> int:
            return 3 * n

        def get_tools():
            return StructuredTool.from_function(_triple, name="triple", description="Triple n.")  # one, no list
    ''')
    tools = load_tools_module(module)

    assert [t.name for t in tools] == ["reverse", "double", "triple"]
    inputs: list[dict[str, Any]] = [{"text": "abc"}, {"n": 4}, {"n": 4}]
    assert [t.invoke(args) for t, args in zip(tools, inputs, strict=True)] == ["cba", 8, 12]


def test_two_modules_with_one_file_name_do_not_clash(tmp_path: Path) -> None:
    source = '''
        from langchain_core.tools import tool

        @tool
        def {name}() -> str:
            """Say which."""
            return "{name}"
    '''
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = load_tools_module(write(tmp_path / "a" / "tools.py", source.format(name="first")))
    second = load_tools_module(write(tmp_path / "b" / "tools.py", source.format(name="second")))
    assert [t.invoke({}) for t in first + second] == ["first", "second"]


def test_the_sample_tools_module_loads() -> None:
    tools = load_tools_module(EXAMPLES / "my_tools.py")
    assert {"word_count", "slugify"} <= {t.name for t in tools}


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (None, "tools module {path}: no such file"),
        ("import not_a_module_anywhere\n", "tools module {path} failed to import: ModuleNotFoundError: "
                                           "No module named 'not_a_module_anywhere'"),
        ("def broken(:\n", "tools module {path} failed to import: SyntaxError:"),
        ("x = 1\n", "tools module {path} has no tools: define @tool functions at module level, a TOOLS list, "
                    "or get_tools()"),
        ("TOOLS = [1, 2]\n", "tools module {path}: TOOLS must be a LangChain tool or a list of them"),
        ("def get_tools():\n    raise RuntimeError('no token')\n", "tools module {path}: get_tools() failed: "
                                                                    "RuntimeError: no token"),
    ],
)
def test_a_bad_tools_module_is_one_line_naming_the_file(tmp_path: Path, source: str | None, expected: str) -> None:
    path = tmp_path / "bad_tools.py"
    if source is not None:
        path.write_text(source)
    with pytest.raises(ConfigurationError) as caught:
        load_tools_module(path)
    message = str(caught.value)
    assert message.startswith(expected.format(path=path))
    assert "\n" not in message


def install_distribution(site: Path, name: str, entry_points: dict[str, str], module: str, source: str) -> None:
    """A minimal installed distribution: its module and a dist-info with entry_points.txt."""
    (site / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    info = site / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    lines = "".join(f"{key} = {value}\n" for key, value in entry_points.items())
    (info / "entry_points.txt").write_text(f"[autoagent.tools]\n{lines}")


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory on sys.path where tests install distributions."""
    directory = tmp_path / "site"
    directory.mkdir()
    monkeypatch.syspath_prepend(str(directory))
    importlib.invalidate_caches()
    return directory


def test_entry_point_tools_come_from_installed_packages(site: Path) -> None:
    install_distribution(site, "autoagent_weather", {
        "forecast": "weather_plugin:forecast",
        "more": "weather_plugin:more_tools",
    }, "weather_plugin", '''
        from langchain_core.tools import tool

        @tool
        def forecast(city: str) -> str:
            """Tomorrow's weather in a city."""
            return f"sunny in {city}"

        @tool
        def humidity(city: str) -> str:
            """Humidity in a city."""
            return "40%"

        def more_tools():
            return [humidity]
    ''')
    importlib.invalidate_caches()

    tools = entry_point_tools()

    assert [t.name for t in tools] == ["forecast", "humidity"]
    assert tools[0].invoke({"city": "Oslo"}) == "sunny in Oslo"


def test_no_entry_points_is_no_tools(site: Path) -> None:
    assert entry_point_tools("autoagent.tools.none-here") == []


def test_a_broken_plugin_names_the_entry_point_and_distribution(site: Path) -> None:
    install_distribution(site, "autoagent_broken", {"bad": "broken_plugin:tools"}, "broken_plugin", '''
        raise ImportError("needs an API key")
    ''')
    importlib.invalidate_caches()
    with pytest.raises(ConfigurationError) as caught:
        entry_point_tools()
    assert str(caught.value) == ("entry point 'bad' (broken_plugin:tools) of autoagent_broken 1.0 failed to load: "
                                 "ImportError: needs an API key")


def test_a_plugin_that_gives_no_tool_names_what_it_gave(site: Path) -> None:
    install_distribution(site, "autoagent_odd", {"odd": "odd_plugin:VALUE"}, "odd_plugin", "VALUE = 42\n")
    importlib.invalidate_caches()
    with pytest.raises(ConfigurationError, match=r"^entry point 'odd' \(odd_plugin:VALUE\) of autoagent_odd 1.0 "
                                                 r"gave int, not a LangChain tool or a list of them$"):
        entry_point_tools()


@tool
def alpha() -> str:
    """First."""
    return "a"


@tool
def beta() -> str:
    """Second."""
    return "b"


def test_select_tools_keeps_the_order_given() -> None:
    assert [t.name for t in select_tools([alpha, beta, shout], ["shout", "alpha"])] == ["shout", "alpha"]


def test_an_unknown_tool_name_lists_the_available_ones() -> None:
    with pytest.raises(ConfigurationError) as caught:
        select_tools([alpha, beta], ["beta", "gamma"])
    assert str(caught.value) == "unknown tool gamma in --tools; available: alpha, beta"


def test_parse_tool_names() -> None:
    assert parse_tool_names("a, b,,c,a") == ["a", "b", "c"]
    assert parse_tool_names(["a,b", "c"]) == ["a", "b", "c"]
    assert parse_tool_names("") is None and parse_tool_names(None) is None


def test_merge_keeps_one_copy_of_the_same_tool() -> None:
    assert merge_tools([alpha, beta], [beta, shout]) == [alpha, beta, shout]


def test_merge_refuses_two_tools_with_one_name_naming_both_sources(tmp_path: Path) -> None:
    module = write(tmp_path / "clash.py", '''
        from langchain_core.tools import tool

        @tool
        def calculator(expression: str) -> str:
            """My own calculator."""
            return "0"
    ''')
    from autoagent.tools import calculator

    with pytest.raises(ConfigurationError) as caught:
        merge_tools([calculator], load_tools_module(module))
    assert str(caught.value) == (f"two tools are named 'calculator': one from built-in, one from tools module "
                                 f"{module}; rename one, or leave one out")


def test_merge_refuses_a_tool_named_like_the_end_of_a_task() -> None:
    @tool
    def final_answer(answer: str) -> str:
        """Mine."""
        return answer

    with pytest.raises(ConfigurationError, match="may not use that name: it ends the task"):
        merge_tools([final_answer])


def test_format_tools_aligns_names_and_descriptions() -> None:
    tools: list[BaseTool] = [alpha, shout]
    assert format_tools(tools).splitlines() == ["alpha  First.", "shout  Upper-case the text."]
    assert format_tools([]) == "No tools."
