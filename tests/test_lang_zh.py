"""A run under --lang zh: the model reads no English but tool docs, tool names, JSON keys and the user's own text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage

from autoagent import AutoGPT
from autoagent.acting.toolbox import Toolbox
from autoagent.prompts import LANGUAGES, PromptTemplateBuilder
from autoagent.reply import FINISH, ThoughtAndAction
from autoagent.tools import file_tools

from .scripted import ScriptedChatModel, act, call

NAME, ROLE = "小助手", "一个用工具完成用户任务的助手。"  # what the user configures (--name, --role)
TASK = "读一下 notes.txt，告诉我写了什么"
NOTE = "周五下午三点开会"  # the file's content
ANSWER = "周五下午三点开会。"

# Words the model must read as they are, in every language: format keywords it writes back, fence markers, names.
KEYWORDS = ["Action Input", "Final Answer", "Thought", "Action", "Observation", "FILE CONTENT", "JSON"]
# JSON keys: the reply's (and its example's placeholder values), the tools' arguments, and JSON schema's own.
JSON_WORDS = ["thought", "text", "reasoning", "plan", "criticism", "speak", "action", "name", "args", "tool_name",
              "arg_name", "value", "path", "answer", "type", "string", "object", "description", "properties",
              "required"]
# What tools/files.py itself writes around a file's content (tool output, in English like the tools' docs).
TOOL_OUTPUT = [re.compile(r"The content of 'notes\.txt' \(1 line, 1 word\):"),
               re.compile(r"the workspace file 'notes\.txt'")]

PARSE_ERROR = {"json": "这不是 JSON", "react": "我想想", "tools": AIMessage(content="我想想")}
UNKNOWN_TOOL = {"json": act("divide", "试一个工具"), "react": "Thought: 试一个工具\nAction: divide\nAction Input: {}",
                "tools": call("divide", "c1")}
MISSING_ARGUMENT = {"json": act("read_file", "读文件"), "react": "Thought: 读文件\nAction: read_file\nAction Input: {}",
                    "tools": call("read_file", "c2")}
READ = {"json": act("read_file", "读文件", path="notes.txt"),
        "react": 'Thought: 读文件\nAction: read_file\nAction Input: {"path": "notes.txt"}',
        "tools": call("read_file", "c3", path="notes.txt")}
FINISHED = {"json": [act(FINISH, "完成了"), ANSWER], "react": [f"Thought: 我知道答案了。\nFinal Answer: {ANSWER}"],
            "tools": [call("final_answer", "c4", answer=ANSWER)]}


def zh_run(protocol: str, tmp_path: Path) -> tuple[AutoGPT, ScriptedChatModel]:
    """A scripted zh run through a parse error, an unknown tool, a missing argument, a fenced file read and a finish."""
    (tmp_path / "notes.txt").write_text(NOTE, encoding="utf-8")
    replies = [PARSE_ERROR[protocol], UNKNOWN_TOOL[protocol], MISSING_ARGUMENT[protocol], READ[protocol],
               *FINISHED[protocol]]
    llm = ScriptedChatModel(replies=replies)
    tools = file_tools(tmp_path)
    agent = AutoGPT(llm=llm, tools=tools, agent_name=NAME, agent_role=ROLE, lang="zh", protocol=protocol,
                    max_thought_steps=8)
    if agent.toolbox.prompts is not agent.prompts:  # the agent does not hand its prompts to its toolbox yet
        agent.toolbox = Toolbox(tools, prompts=agent.prompts)
    result = agent.execute(TASK)
    assert result.finished and result.answer == ANSWER, result.describe_stop()
    kinds = [step.kind.value for step in result.steps]
    assert kinds[:4] == ["parse_error", "action", "action", "action"], kinds
    assert [step.success for step in result.steps[1:4]] == [False, False, True]
    return agent, llm


def english_left(agent: AutoGPT, llm: ScriptedChatModel) -> list[str]:
    """The English words in everything the model was sent, once the allowed English is taken out."""
    sent = list(llm.prompts)
    finish = [schema["function"] for schema in llm.bound_tools if schema["function"]["name"] == "final_answer"]
    sent += [f"{tool['description']} {json.dumps(tool['parameters'], ensure_ascii=False)}" for tool in finish]
    text = "\n".join(sent)
    toolbox = agent.toolbox
    allowed = [toolbox.describe_tool(name) for name in toolbox.tools]
    allowed += [" ".join(tool.description.split()) for tool in toolbox.tools.values()]
    allowed += [json.dumps(schema, ensure_ascii=False) for schema in llm.bound_tools if schema not in finish]
    for phrase in sorted(allowed, key=len, reverse=True):
        text = text.replace(phrase, " ")
    for pattern in TOOL_OUTPUT:
        text = pattern.sub(" ", text)
    text = re.sub(r"<<<FILE CONTENT [0-9a-f]+|FILE CONTENT [0-9a-f]+>>>|\b[0-9a-f]{12}\b", " ", text)  # fence markers
    names = [*toolbox.tools, FINISH, "final_answer", "divide", "notes.txt"]
    for word in sorted([*KEYWORDS, *names], key=len, reverse=True):
        text = re.sub(rf"(?<![A-Za-z_]){re.escape(word)}(?![A-Za-z_])", " ", text)
    text = re.sub(rf"(?<![A-Za-z_])(?:{'|'.join(JSON_WORDS)})(?![A-Za-z_])", " ", text)
    return re.findall(r"[A-Za-z][A-Za-z']+", text)


@pytest.mark.parametrize("protocol", ["json", "react", "tools"])
def test_a_chinese_run_sends_the_model_no_english(protocol: str, tmp_path: Path) -> None:
    agent, llm = zh_run(protocol, tmp_path)
    assert english_left(agent, llm) == []


def test_the_agent_hands_its_language_to_its_toolbox(tmp_path: Path) -> None:
    agent = AutoGPT(llm=ScriptedChatModel(replies=[]), tools=file_tools(tmp_path), lang="zh")
    if agent.toolbox.prompts is not agent.prompts:
        pytest.xfail("the agent (agent.py, plan.py; loop/lifecycle.py) builds its Toolbox without prompts=self.prompts")


def test_every_template_exists_in_every_language_with_the_same_variables() -> None:
    packaged = Path(__file__).parent.parent / "prompts"
    names = {lang: sorted(path.stem for path in (packaged / lang).glob("*.templ")) for lang in LANGUAGES}
    assert all(found == names["en"] for found in names.values()), names
    builders = [PromptTemplateBuilder(lang=lang) for lang in LANGUAGES]
    for name in names["en"]:
        variables = [set(builder.build(name).input_variables) for builder in builders]
        assert all(found == variables[0] for found in variables), (name, variables)


def test_the_parse_problem_is_in_the_run_language() -> None:
    from autoagent.reply import ReplyParseError, ThoughtActionParser

    with pytest.raises(ReplyParseError) as caught:
        ThoughtActionParser().parse("no json here")
    assert caught.value.problem == "no JSON object found in the reply"
    assert caught.value.explain(PromptTemplateBuilder(lang="zh")) == "回复中没有找到 JSON 对象"
    assert isinstance(ThoughtActionParser().parse(act("calculator")), ThoughtAndAction)
