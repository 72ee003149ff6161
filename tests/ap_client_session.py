"""An Agent Protocol client session with the real `agent-protocol-client` package (pydantic 1, so it runs in a
virtual environment of its own: tests/test_serve_client.py starts it). Prints what it saw as one JSON object.

Usage: python tests/ap_client_session.py URL TOKEN TASK
"""

import asyncio
import json
import sys

from agent_protocol_client import AgentApi, ApiClient, Configuration, StepRequestBody, TaskRequestBody


async def session(url: str, token: str, text: str) -> dict:
    async with ApiClient(Configuration(host=url), "Authorization", f"Bearer {token}") as client:
        api = AgentApi(client)
        task = await api.create_agent_task(task_request_body=TaskRequestBody(input=text))
        steps, answer = [], None
        while True:  # step until done, answering each approval question with y
            step = await api.execute_agent_task_step(task_id=task.task_id,
                                                     step_request_body=StepRequestBody(input=answer))
            steps.append({"name": step.name, "status": step.status, "output": step.output, "is_last": step.is_last})
            answer = "y" if step.status == "running" else None
            if step.is_last or len(steps) > 10:
                break
        artifacts = (await api.list_agent_task_artifacts(task_id=task.task_id)).artifacts
        content = await api.download_agent_task_artifact(task_id=task.task_id, artifact_id=artifacts[0].artifact_id)
        listed = (await api.list_agent_task_steps(task_id=task.task_id)).steps
        tasks = (await api.list_agent_tasks()).tasks
        return {"task_id": task.task_id, "steps": steps, "artifacts": [a.file_name for a in artifacts],
                "content": bytes(content).decode(), "listed_steps": len(listed),
                "tasks": [t.task_id for t in tasks]}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(session(*sys.argv[1:4]))))
