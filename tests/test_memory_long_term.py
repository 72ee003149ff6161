"""LongTermMemory: recall on a labelled set, remembering through the template, the agent and the adapter."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from langchain_core.vectorstores import InMemoryVectorStore

from autoagent import AutoGPT
from autoagent.errors import ModelUnavailableError
from autoagent.memory.long_term import LongTermMemory, default_min_score
from autoagent.memory.summary import MAX_SUMMARY_CHARS, clean_summary
from autoagent.prompts import PromptTemplateBuilder
from autoagent.steps import Step, StepKind, StopReason

from .scripted import ScriptedChatModel, act
from .test_agent import multiply
from .test_memory_support import HASH_MIN_SCORE, HashingEmbeddings, entry, local_memory, run_result, step

PAST = {
    "usd": ("Convert 100 USD to EUR with rate 0.92 and save it to rates.txt",
            "The calculator gave 100 * 0.92 = 92 and write_file saved 92 EUR to rates.txt. Answer: 92 EUR."),
    "christmas": ("What day of the week is Christmas 2025?",
                  "The calendar tool resolved 2025-12-25 as a Thursday. Answer: Thursday."),
    "empty": ("Delete the empty files in the workspace",
              "list_files found that b.txt was empty and delete_file removed it. Answer: deleted b.txt."),
    "haiku": ("Write a haiku about autumn into poem.txt",
              "A haiku about autumn leaves was written and write_file saved it to poem.txt."),
}
RELATED = [
    ("Convert 250 USD to EUR at rate 0.92 and save it to rates.txt", "usd"),
    ("What day of the week is Christmas 2026?", "christmas"),
    ("Delete empty files in my workspace", "empty"),
    ("Write a haiku about winter into snow.txt", "haiku"),
]
UNRELATED = ["Who won the football world cup in 2018?", "Explain photosynthesis in plants",
             "Translate good morning into French"]


def in_memory_vectorstore(_: Path) -> LongTermMemory:
    return LongTermMemory.from_vectorstore(InMemoryVectorStore(HashingEmbeddings()), min_score=HASH_MIN_SCORE)


BACKENDS: dict[str, Callable[[Path], LongTermMemory]] = {
    "local store": lambda path: local_memory(path / "memory"),
    "langchain vector store": in_memory_vectorstore,
}


@pytest.fixture(params=list(BACKENDS))
def memory(request: pytest.FixtureRequest, tmp_path: Path) -> LongTermMemory:
    return BACKENDS[request.param](tmp_path)


@pytest.fixture
def labelled(memory: LongTermMemory) -> LongTermMemory:
    for task, summary in PAST.values():
        memory.backend.add(entry(task, summary))
    return memory


@pytest.mark.parametrize(("query", "label"), RELATED)
def test_recall_puts_the_relevant_past_run_first(labelled: LongTermMemory, query: str, label: str) -> None:
    recalled = labelled.recall(query)
    assert recalled and recalled[0].metadata["task"] == PAST[label][0]
    assert recalled[0].page_content == PAST[label][1]
    assert recalled[0].metadata["outcome"] == "finished" and recalled[0].metadata["score"] >= HASH_MIN_SCORE
    assert len(recalled) <= labelled.k


@pytest.mark.parametrize("query", UNRELATED)
def test_recall_skips_unrelated_memories(labelled: LongTermMemory, query: str) -> None:
    assert labelled.backend.search(query, 1), "there are memories, just none relevant"
    assert labelled.recall(query) == []


def test_thresholds_follow_the_embedding_family() -> None:
    assert default_min_score("local:qwen.gguf:mean") > default_min_score("openai:text-embedding-3-small")
    assert default_min_score("someone:else") == default_min_score("openai:x")


def usd_run(stop: StopReason = StopReason.FINISHED) -> tuple[str, list[Step]]:
    steps = [
        step(1, "calculator", "92", thought="multiply by the rate", expression="100 * 0.92"),
        Step(2, StepKind.PARSE_ERROR, "garbled reply nobody needs", None, "could not parse", success=False),
        step(3, "write_file", "wrote rates.txt", path="rates.txt", text="92 EUR"),
    ]
    return PAST["usd"][0], steps


def test_remember_summarises_with_the_template_and_stores_metadata(tmp_path: Path) -> None:
    memory = local_memory(tmp_path / "memory")
    task, steps = usd_run()
    llm = ScriptedChatModel(replies=["```\nConverted 100 USD to EUR at 0.92:\n  92 EUR, saved to rates.txt.\n```"])

    entry_id = memory.remember(run_result(task, "100 USD is 92 EUR.", steps=steps), llm, "qwen-test", run_id="run-1")

    prompt = llm.prompts[0]
    assert f"Task: {task}" in prompt and "Outcome: finished" in prompt
    assert 'Action: calculator {"expression": "100 * 0.92"} -> 92' in prompt
    assert 'write_file {"path": "rates.txt", "text": "92 EUR"} -> wrote rates.txt' in prompt
    assert "Final answer: 100 USD is 92 EUR." in prompt and "garbled" not in prompt
    stored = memory.backend.store.get(entry_id)  # type: ignore[attr-defined]
    assert stored.summary == "Converted 100 USD to EUR at 0.92: 92 EUR, saved to rates.txt."
    assert (stored.task, stored.outcome, stored.model, stored.run_id) == (task, "finished", "qwen-test", "run-1")
    assert stored.extra == {"steps": 3, "seconds": 1.2} and stored.created.endswith("+00:00")


def test_stopped_and_failed_runs_are_remembered_with_their_outcome(tmp_path: Path) -> None:
    memory = local_memory(tmp_path / "memory")
    task, steps = usd_run()
    llm = ScriptedChatModel(replies=["Ran out of steps after computing 92.", "Failed after computing 92."])
    stopped = memory.remember(run_result(task, "", StopReason.MAX_STEPS, steps), llm, "m")
    failed = memory.remember(run_result(task, "", StopReason.INTERRUPTED, steps), llm, "m", outcome="failed")
    assert "Outcome: max_steps" in llm.prompts[0] and "Final answer: (none)" in llm.prompts[0]
    assert "Outcome: failed" in llm.prompts[1]
    store = memory.backend.store  # type: ignore[attr-defined]
    assert store.get(stopped).outcome == "max_steps" and store.get(failed).outcome == "failed"
    assert store.get(stopped).run_id != store.get(failed).run_id


def test_a_run_with_nothing_in_it_is_not_remembered(tmp_path: Path) -> None:
    memory = local_memory(tmp_path / "memory")
    llm = ScriptedChatModel(replies=[])
    assert memory.remember(run_result("anything", "", StopReason.INTERRUPTED), llm, "m") is None
    assert llm.prompts == []


def test_a_failing_model_raises_a_clear_error_and_stores_nothing(tmp_path: Path) -> None:
    memory = local_memory(tmp_path / "memory")
    task, steps = usd_run()
    with pytest.raises(ModelUnavailableError, match="the model call failed"):
        memory.remember(run_result(task, "92", steps=steps), ScriptedChatModel(replies=[]), "m")
    assert memory.backend.store.count() == 0  # type: ignore[attr-defined]


def test_the_summary_prompt_follows_the_language(tmp_path: Path) -> None:
    memory = local_memory(tmp_path / "memory")
    memory.prompts = PromptTemplateBuilder(lang="zh")
    task, steps = usd_run()
    llm = ScriptedChatModel(replies=["把 100 美元按 0.92 换成 92 欧元。"])
    memory.remember(run_result(task, "92 EUR", steps=steps), llm, "m")
    assert f"任务：{task}" in llm.prompts[0] and "结果：finished" in llm.prompts[0]
    assert "第 1 步。思考：multiply by the rate" in llm.prompts[0]


def test_clean_summary_keeps_one_paragraph_and_cuts_at_a_sentence() -> None:
    assert clean_summary("```text\nOne.\n\n Two.\n```") == "One. Two."
    long = " ".join(f"Sentence number {i} is here." for i in range(200))
    cut = clean_summary(long)
    assert len(cut) <= MAX_SUMMARY_CHARS and cut.endswith("is here.")


def agent_run(memory: LongTermMemory, task: str, a: int, b: int) -> tuple[str, str]:
    """Run the agent with the memory's retriever, remember the run; the first step prompt and the entry id."""
    llm = ScriptedChatModel(replies=[act("multiply", a=a, b=b), act("FINISH"), f"{a * b}",
                                     f"Multiplied {a} by {b} with the multiply tool; the answer was {a * b}."])
    agent = AutoGPT(llm=llm, tools=[multiply], memory_retriever=memory.as_retriever())
    result = agent.execute(task)  # recall happens once, before the first step
    entry_id = memory.remember(result, llm, "scripted")  # what the agent will do at the end of execute
    assert entry_id is not None
    return llm.prompts[0], entry_id


def test_a_later_run_recalls_an_earlier_one_but_never_itself(memory: LongTermMemory) -> None:
    first_prompt, _ = agent_run(memory, "What is 6 times 7?", 6, 7)
    assert "Memories of similar past tasks:\n(none)" in first_prompt  # not even itself

    second_prompt, _ = agent_run(memory, "What is 6 times 8?", 6, 8)
    assert "- Multiplied 6 by 7 with the multiply tool; the answer was 42." in second_prompt
    assert "the answer was 48" not in second_prompt

    unrelated_prompt, _ = agent_run(memory, "Translate good morning into French", 1, 1)
    assert "Memories of similar past tasks:\n(none)" in unrelated_prompt


def test_recall_on_an_empty_store_does_not_load_the_embedding_model(tmp_path: Path) -> None:
    embeddings = HashingEmbeddings()
    memory = local_memory(tmp_path / "memory", embeddings)
    assert memory.as_retriever().invoke("anything") == [] and embeddings.calls == 0


def test_a_plain_vectorstore_retriever_still_plugs_into_the_agent() -> None:
    store = InMemoryVectorStore(HashingEmbeddings())
    store.add_texts(["Six times seven was 42, found with multiply."])
    llm = ScriptedChatModel(replies=[act("multiply", a=6, b=7), act("FINISH"), "42"])
    agent = AutoGPT(llm=llm, tools=[multiply], memory_retriever=store.as_retriever(search_kwargs={"k": 1}))
    assert agent.run("6 times 7?") == "42"
    assert "- Six times seven was 42, found with multiply." in llm.prompts[0]


SECRET = "sk-memory-secret-0123456789"


def test_secrets_are_never_stored_shown_or_recalled(memory: LongTermMemory, monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    task = f"Check that the key {SECRET} converts USD to EUR"
    llm = ScriptedChatModel(replies=[f"Used the key {SECRET} and a key cut short: {SECRET[:14]}"])
    memory.remember(run_result(task, f"ok {SECRET}", steps=usd_run()[1]), llm, "m")

    recalled = memory.recall("converts USD to EUR with the key")
    assert len(recalled) == 1 and SECRET[:10] not in repr(recalled)
    assert recalled[0].page_content == "Used the key [REDACTED] and a key cut short: [REDACTED]"
    assert recalled[0].metadata["task"] == "Check that the key [REDACTED] converts USD to EUR"
    store = getattr(memory.backend, "store", None)
    if store is not None:  # the local store: nothing on disk holds it either
        assert all(SECRET[:10].encode() not in path.read_bytes() for path in store.directory.iterdir())


def test_an_older_entry_holding_a_secret_is_shown_redacted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from autoagent.memory.database import insert_entry, open_database

    db = open_database(tmp_path / "memory")
    insert_entry(db, entry(f"task with {SECRET}", f"summary with {SECRET}"))  # written before redaction existed
    db.close()
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    store = local_memory(tmp_path / "memory").backend.store  # type: ignore[attr-defined]
    shown = [store.get("1"), *store.entries()]
    assert [(item.task, item.summary) for item in shown] == [("task with [REDACTED]", "summary with [REDACTED]")] * 2
