"""`autoagent serve`: the agent behind the Agent Protocol over HTTP (FastAPI on uvicorn), one workspace and one
transcript per task, a step at a time, approvals answered by the next step's input."""
