"""Nested templates, user overrides and the errors that name the file at fault."""

from __future__ import annotations

from pathlib import Path

import pytest

from autoagent.errors import PromptTemplateError
from autoagent.prompts import PromptTemplateBuilder

PACKAGED = ["main", "instructions", "constraints", "resources", "performance_evaluation", "step_instruction",
            "force_rethink", "finish_instruction"]


def write(directory: Path, **files: str) -> Path:
    for name, text in files.items():
        (directory / f"{name}.templ").write_text(text, encoding="utf-8")
    return directory


def test_includes_nest_recursively(tmp_path: Path) -> None:
    write(tmp_path, top="A {middle_templ} Z", middle="B {bottom_templ} {value}", bottom="C {{literal}}\n")
    builder = PromptTemplateBuilder(tmp_path)
    assert builder.render("top", value="V") == "A B C {literal} V Z"


def test_main_prompt_variables_after_includes() -> None:
    template = PromptTemplateBuilder().build("main")
    assert set(template.input_variables) == {
        "ai_name", "ai_role", "task_description", "tools", "long_term_memory", "short_term_memory",
        "format_instruction", "step_instruction",
    }


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_packaged_template_exists(lang: str) -> None:
    builder = PromptTemplateBuilder(lang=lang)
    for name in PACKAGED:
        assert builder.build(name).template.strip()


def test_chinese_prompts() -> None:
    text = PromptTemplateBuilder(lang="zh").render("step_instruction")
    assert "JSON" in text and "工具" in text


def test_override_replaces_only_the_given_files(tmp_path: Path) -> None:
    write(tmp_path, constraints="Constraint: be brief.")
    builder = PromptTemplateBuilder(tmp_path)
    main = builder.build("main").template
    assert "Constraint: be brief." in main
    assert "Tools:" in main  # resources.templ still comes from the package


def test_missing_include_names_both_files(tmp_path: Path) -> None:
    write(tmp_path, top="{nowhere_templ}")
    with pytest.raises(PromptTemplateError, match=r"nowhere\.templ' \(included by .*top\.templ\) not found"):
        PromptTemplateBuilder(tmp_path).build("top")


def test_include_cycle_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, a="{b_templ}", b="{c_templ}", c="{a_templ}")
    with pytest.raises(PromptTemplateError, match=r"cycle: a\.templ -> b\.templ -> c\.templ -> a\.templ"):
        PromptTemplateBuilder(tmp_path).build("a")


def test_unfilled_variable_is_an_error_not_an_empty_string(tmp_path: Path) -> None:
    write(tmp_path, greet="Hello {who} from {where}")
    with pytest.raises(PromptTemplateError, match=r"greet\.templ: nothing fills \{where\}"):
        PromptTemplateBuilder(tmp_path).render("greet", who="you")


def test_override_main_with_an_unknown_variable_fails_at_construction(tmp_path: Path) -> None:
    from autoagent import AutoGPT

    from .scripted import ScriptedChatModel

    write(tmp_path, main="{task_description} {mood}")
    with pytest.raises(PromptTemplateError, match=r"main\.templ: nothing fills mood"):
        AutoGPT(llm=ScriptedChatModel(replies=[]), tools=[], prompts_path=tmp_path)


def test_bad_brace_names_the_file(tmp_path: Path) -> None:
    write(tmp_path, broken="a { b")
    with pytest.raises(PromptTemplateError, match=r"broken\.templ"):
        PromptTemplateBuilder(tmp_path).build("broken")


def test_unknown_language_and_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(PromptTemplateError, match="unknown prompt language 'fr'"):
        PromptTemplateBuilder(lang="fr")
    with pytest.raises(PromptTemplateError, match="does not exist"):
        PromptTemplateBuilder(tmp_path / "nope")
