"""Injection: what a hook adds to the agent's context, as traced recalls (docs/capture.md).

Each method is one moment a hook may add context, for a session of an agent host: the
brief at session start, recall for a prompt, and before a shell command. Each is a
recall of this principal (the same hard filters, sensitivity ceiling and injection
scan) whose trace records the session, the event and the tokens injected, so ``cite``
and miss hints work from hooks as from MCP. Choosing and rendering are pure
(:mod:`graphmem.inject.present`); tokens are the embedder's (:mod:`graphmem.vectors.tokens`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from graphmem.capabilities.context import Capability
from graphmem.capture.signals import normalise_command
from graphmem.inject import present
from graphmem.models import Arm, BeliefType, Injection, RecallQuery, RecallResult, SnapshotProfile
from graphmem.recall.presentation import Offered, Presentation, Presented
from graphmem.store.ids import new_id
from graphmem.trust.sensitivity import Sensitivity, parse_sensitivity
from graphmem.validation import check_project, parse
from graphmem.vectors.tokens import count_tokens

BRIEF_TOKENS = 400
"""The brief's default budget (``GRAPHMEM_INJECT_BRIEF_TOKENS``)."""
PROMPT_TOKENS = 300
"""A prompt's default budget (``GRAPHMEM_INJECT_PROMPT_TOKENS``)."""
COMMAND_TOKENS = 300
"""The most a warning before a command takes."""
RECALL_K = 50
"""The ``k`` an injection's recall records; its presenter chooses from every ranked item
(in a large memory the top k can hold word matches alone, which the floor refuses: at
100k beliefs, half the project prompts got nothing from the top 20)."""
INJECTION_ARMS = [Arm.LEXICAL, Arm.SEMANTIC]
"""The arms an injection's recall runs: the floor reads their scores, so an item only
the graph arm reached could never be injected."""
MAX_QUERY_CHARS = 2_000
"""The most of a prompt recalled for (a pasted log is longer than its point)."""


class Injections(Capability):
    """What hooks inject, each as a traced recall (docs/capture.md#injection)."""

    def brief(
        self,
        project: str,
        *,
        session_id: str,
        tokens: int = BRIEF_TOKENS,
        exclude: Collection[str] = (),
        ceiling: Sensitivity | str = Sensitivity.CONFIDENTIAL,
    ) -> Injection:
        """The project brief for the start of a session (empty for an empty memory).

        Args:
            project: The session's project.
            session_id: The agent host's session id (recorded on the trace).
            tokens: The budget, in the embedder's tokens.
            exclude: Belief ids injected earlier in the session.
            ceiling: The most sensitive level injected.

        Raises:
            InvalidInput: ``project`` or ``ceiling`` is not valid.
        """
        name = check_project(project)
        trace = new_id()
        presentation = Presentation(
            lambda offered: present.brief(offered, name, trace, tokens, count_tokens, exclude),
            session_id,
            "session_start",
            trace,
        )
        level = parse_sensitivity(str(ceiling), "ceiling")
        result = self._engine.snapshot(name, SnapshotProfile.LONG, level, presentation)
        return _injection(result)

    def inject_for_prompt(
        self,
        prompt: str,
        *,
        project: str,
        session_id: str,
        tokens: int = PROMPT_TOKENS,
        exclude: Collection[str] = (),
        ceiling: Sensitivity | str = Sensitivity.CONFIDENTIAL,
    ) -> Injection:
        """What a prompt recalls, above the relevance floor (empty when nothing is).

        Args:
            prompt: The user's prompt (user text; never query syntax).
            project: The session's project (its beliefs and principal-scope ones).
            session_id: The agent host's session id.
            tokens: The budget, in the embedder's tokens.
            exclude: Belief ids injected earlier in the session.
            ceiling: The most sensitive level injected.

        Raises:
            InvalidInput: An argument breaks a rule (an empty prompt...).
        """
        name, trace = check_project(project), new_id()
        return self._recalled(
            prompt[:MAX_QUERY_CHARS],
            name,
            None,
            Presentation(
                lambda offered: present.prompt(offered, name, trace, tokens, count_tokens, exclude),
                session_id,
                "prompt",
                trace,
            ),
            ceiling,
        )

    def inject_for_command(
        self,
        command: str,
        *,
        project: str,
        session_id: str,
        tokens: int = COMMAND_TOKENS,
        exclude: Collection[str] = (),
        ceiling: Sensitivity | str = Sensitivity.CONFIDENTIAL,
    ) -> Injection:
        """The dead ends and fixes recorded for a shell command, before it runs.

        Args:
            command: The shell command as the agent is about to run it.
            project: The session's project.
            session_id: The agent host's session id.
            tokens: The budget, in the embedder's tokens.
            exclude: Belief ids injected earlier in the session.
            ceiling: The most sensitive level injected.

        Raises:
            InvalidInput: An argument breaks a rule (an empty command...).
        """
        name, trace = check_project(project), new_id()
        normalised = normalise_command(command)[:MAX_QUERY_CHARS] or command[:MAX_QUERY_CHARS]

        def chosen(offered: Sequence[Offered]) -> Presented:
            return present.command(offered, normalised, name, trace, tokens, count_tokens, exclude)

        return self._recalled(
            normalised,
            name,
            [BeliefType.DEAD_END, BeliefType.LESSON],
            Presentation(chosen, session_id, "pre_tool", trace),
            ceiling,
        )

    def warm(self) -> None:
        """Loads the embedder, its tokenizer and the belief views now (a server's start).

        The first injection of a session then answers within a hook's budget.
        """
        self._engine.warm()
        count_tokens("warm")

    def _recalled(
        self,
        query: str,
        project: str,
        types: list[BeliefType] | None,
        presentation: Presentation,
        ceiling: Sensitivity | str,
    ) -> Injection:
        request = parse(
            RecallQuery,
            {
                "query": query,
                "project": project,
                "types": types,
                "k": RECALL_K,
                "arms": INJECTION_ARMS,
                "ceiling": ceiling,
            },
        )
        return _injection(self._engine.recall(request, presentation))


def _injection(result: RecallResult) -> Injection:
    return Injection(
        text=result.rendered,
        item_ids=[item.id for item in result.items],
        tokens=0 if not result.rendered else count_tokens(result.rendered),
        trace_id=result.trace_id,
    )
