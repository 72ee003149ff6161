"""Errors that are ours to report: the CLI prints each as one line and exits non-zero."""


class AutoAgentError(Exception):
    """Base class: a configuration or infrastructure failure, not a mistake of the model."""


class ConfigurationError(AutoAgentError):
    """A setting is missing or wrong (no API key, bad model spec, bad directory)."""


class ModelUnavailableError(AutoAgentError):
    """The chat model cannot be reached or loaded (server down, weights missing or corrupt)."""


class PromptTemplateError(AutoAgentError):
    """A prompt template is missing, includes itself, or leaves a variable unfilled."""


class SubAgentError(AutoAgentError):
    """A sub-agent's run failed on an error of ours (its model unreachable, say): its caller's run stops too."""
