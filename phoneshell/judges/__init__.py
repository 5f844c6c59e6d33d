"""The judge benchmark: trajectories labelled by the phone, and judges scored against them.

    sources    where items come from (run folders, swap and attack results) and their labels
    words      audit-logged actions in words a person reads
    judgeset   build a judgeset folder (items apart from labels) and read it back
    sameness   what makes two items the same trajectory (never the status bar)
    population every scored attempt of its runs, and the item that judges each (ranking)
    horizon    the same items in AgentHorizon's layout
    base       what a judge is, the judge registry, reading a verdict from a judge's answer
    baseline   `openai:MODEL`, MobileJudgeBench's simple baseline judge
    command    `command:CMD`, any program as a judge
    run        a judge run over a judgeset, resumable
    score      strict scoring, breakdowns, ranking fidelity
    html       the judge report page

Reads run folders and results files; never touches a device (docs/judges.md).
"""

from phoneshell.judges import baseline, command  # noqa: F401 - they register the judges
from phoneshell.judges.base import (
           JUDGES,
           Judge,
           JudgeOptions,
           Reply,
           Shown,
           make_judge,
)
from phoneshell.judges.judgeset import JudgeSet, Sources, build_judgeset, open_judgeset
from phoneshell.judges.labels import read_labels
from phoneshell.judges.population import Population, read_population
from phoneshell.judges.run import Judged, judge_set, read_answers
from phoneshell.judges.score import score, spearman
from phoneshell.judges.sources import JudgeError
from phoneshell.judges.verdict import read_answer

__all__ = ["JUDGES", "Judge", "JudgeError", "JudgeOptions", "JudgeSet", "Judged", "Population",
           "Reply", "Shown", "Sources", "build_judgeset", "judge_set", "make_judge",
           "open_judgeset", "read_answer", "read_answers", "read_labels", "read_population",
           "score", "spearman"]
