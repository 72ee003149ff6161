"""Builds prompts from nested `.templ` files: `{x_templ}` is filled from `x.templ`, recursively."""

from __future__ import annotations

import functools
import string
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from langchain_core.prompts import PromptTemplate

from .errors import PromptTemplateError

INCLUDE_SUFFIX = "_templ"
LANGUAGES = ("en", "zh")


def _escape(literal: str) -> str:
    return literal.replace("{", "{{").replace("}", "}}")


class PromptTemplateBuilder:
    """Finds templates in a user's directory first, then in the packaged set for the language."""

    def __init__(self, prompts_path: str | Path | None = None, lang: str = "en") -> None:
        if lang not in LANGUAGES:
            raise PromptTemplateError(f"unknown prompt language '{lang}' (choose from {', '.join(LANGUAGES)})")
        self.override_dir = Path(prompts_path).expanduser() if prompts_path else None
        if self.override_dir is not None and not self.override_dir.is_dir():
            raise PromptTemplateError(f"prompts directory '{self.override_dir}' does not exist")
        self.packaged_dir: Traversable = resources.files("autoagent.templates") / lang
        self._templates: dict[str, PromptTemplate] = {}  # the files do not change during a run: parse each once

    def _source(self, name: str, included_by: str | None = None) -> tuple[str, str]:
        """The text of `name.templ` and where it came from."""
        filename = f"{name}.templ"
        if self.override_dir is not None and (self.override_dir / filename).is_file():
            path = self.override_dir / filename
            return path.read_text(encoding="utf-8"), str(path)
        packaged = self.packaged_dir / filename
        if packaged.is_file():
            return packaged.read_text(encoding="utf-8"), f"prompts/{self.packaged_dir.name}/{filename}"
        searched = f"'{self.override_dir}' or " if self.override_dir else ""
        where = f" (included by {included_by})" if included_by else ""
        raise PromptTemplateError(f"template '{filename}'{where} not found in {searched}the packaged prompts")

    def _flatten(self, name: str, stack: tuple[str, ...] = (), included_by: str | None = None) -> str:
        """The template text with every `{x_templ}` replaced by x.templ's flattened text."""
        if name in stack:
            cycle = " -> ".join(f"{n}.templ" for n in (*stack, name))
            raise PromptTemplateError(f"template include cycle: {cycle}")
        text, origin = self._source(name, included_by)
        pieces: list[str] = []
        try:
            parsed = list(string.Formatter().parse(text))
        except ValueError as err:
            raise PromptTemplateError(f"{origin}: {err} (write a literal brace as {{{{ or }}}})") from err
        for literal, field, spec, conversion in parsed:
            pieces.append(_escape(literal))
            if field is None:
                continue
            if spec or conversion:
                raise PromptTemplateError(f"{origin}: '{{{field}}}' must be a plain variable")
            if field.endswith(INCLUDE_SUFFIX):
                included = self._flatten(field[: -len(INCLUDE_SUFFIX)], (*stack, name), origin)
                pieces.append(included.removesuffix("\n"))  # a file's final newline is not content
            else:
                pieces.append(f"{{{field}}}")
        return "".join(pieces)

    def build(self, name: str, **known: str) -> PromptTemplate:
        """The template `name` with includes resolved and the `known` variables filled up front."""
        template = self._templates.get(name)
        if template is None:
            template = self._templates[name] = PromptTemplate.from_template(self._flatten(name))
        filled = {key: value for key, value in known.items() if key in template.input_variables}
        return template.partial(**filled) if filled else template  # type: ignore[return-value]

    def render(self, name: str, **variables: str) -> str:
        """Render a template in one go; every variable it uses must be given."""
        return format_prompt(self.build(name), name, **variables)


@functools.cache
def english_prompts() -> PromptTemplateBuilder:
    """The packaged English prompts, for the parts no run told its language (their default)."""
    return PromptTemplateBuilder()


def format_prompt(template: PromptTemplate, name: str, **variables: str) -> str:
    """Format `template`, turning a variable left unfilled into an error that names the template."""
    missing = sorted(set(template.input_variables) - set(variables))
    if missing:
        raise PromptTemplateError(f"{name}.templ: nothing fills {', '.join('{' + m + '}' for m in missing)}")
    used = {k: v for k, v in variables.items() if k in template.input_variables}
    filled = template.partial_variables
    if template.template_format != "f-string" or any(callable(value) for value in filled.values()):
        return template.format(**used)
    return template.template.format_map({**filled, **used})  # what PromptTemplate.format does, at C speed
