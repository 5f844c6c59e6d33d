"""The agent's turn: a URL of its own granted for the turn and revoked when it ends, whatever
happened, so nothing it left behind can use the phone after; and any error it ended in but the
rig's kept as its result, for `turn.held_to_log` to score (an agent must not be able to turn its
failure into a skip by what it sends or answers)."""

from __future__ import annotations

import traceback

from phoneshell.agents import Agent, AgentContext, AgentResult
from phoneshell.agents.bounds import DiskShort
from phoneshell.agents.command import CommandAgent
from phoneshell.errors import RIG_DOWN
from phoneshell.runner.around import AroundWatch
from phoneshell.runner.folder import write_note
from phoneshell.runner.plan import AttemptPlan
from phoneshell.runner.rig import Rig, RigDown
from phoneshell.runner.unwritten import rigs_error
from phoneshell.untrusted import storable

__all__ = ["agent_turn"]


def agent_turn(plan: AttemptPlan, rig: Rig, agent: Agent, watch: AroundWatch) -> AgentResult:
    """The agent's turn (`_run_agent`), with any error it ended in but the rig's kept as its
    result: `turn.held_to_log` then scores it as the agent's failure when it had acted on the
    phone (an agent must not be able to turn its failure into a skip by what it sends or
    answers), and skips it only when it had not. An agent in this process that exits
    (`sys.exit`, a plugin's) has ended its turn in an error like any other: the run goes on.
    A write to the run folder the system refused is raised (`runner.unwritten`): the rig's,
    but a full disk met by an agent that could fill it."""
    try:
        return _run_agent(plan, rig, agent, watch)
    except (RigDown, *RIG_DOWN) as exc:
        # an in-process agent's own connection failed: the rig's fault only if the phone
        # no longer answers the harness either (one read); else the agent's error
        if isinstance(exc, RigDown) or rig.phone.locked():
            raise
        failed: BaseException = exc
    except DiskShort:
        raise  # the disk's, not the agent's: the attempt is not scored (`run_attempt`)
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - kept as data, with its traceback
        if rigs_error(exc, plan.run_dir, isinstance(agent, CommandAgent), in_turn=True):
            raise  # the run folder would not take the harness's write: the rig's (`unwritten`)
        failed = exc
    write_note(plan.folder / "traceback.txt", "".join(traceback.format_exception(failed)))
    return AgentResult(ran=False, error=f"harness error ({type(failed).__name__}) in the "
                       f"agent's turn: {storable(str(failed))[:300]}; see traceback.txt",
                       error_type=type(failed).__name__)


def _run_agent(plan: AttemptPlan, rig: Rig, agent: Agent, watch: AroundWatch) -> AgentResult:
    """Grant the agent a URL of its own for its turn, run it, and revoke the grant whatever
    happened: nothing it left behind can use the phone after. `watch` reads the phone's ledger
    of inputs just before the grant and once it is revoked (`runner.around`)."""
    program = isinstance(agent, CommandAgent)
    # A program in the sandbox cannot reach a private phone; an agent in this process has no
    # shell at all. Either way the bridge is the only way to the phone while it runs.
    confined = not program or (plan.sandbox is not None and plan.sandbox.confines
                               and rig.private)
    watch.begin()
    url = rig.bridge.grant_agent(confined=confined, max_steps=plan.task.max_steps)
    try:
        task = plan.task
        return agent.run(AgentContext(task, task.instruction, url, task.max_steps,
                                      task.timeout_seconds, plan.folder, plan.sandbox,
                                      rig.bridge.agent_cut_off))
    finally:
        rig.bridge.revoke_agent()  # and what was on its way through the bridge has arrived
        watch.end()
