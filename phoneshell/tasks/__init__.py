"""Task files: load and validate them (file:line errors); the step and check vocabularies."""

from phoneshell.tasks.load import TaskSet, check_tasks, load_task, load_tasks
from phoneshell.tasks.model import Task
from phoneshell.tasks.parse import parse_task
from phoneshell.tasks.steps import STEPS, Step, StepKind
from phoneshell.tasks.suite import PATHS_HELP, default_task_paths

__all__ = ["PATHS_HELP", "STEPS", "Step", "StepKind", "Task", "TaskSet", "check_tasks",
           "default_task_paths", "load_task", "load_tasks", "parse_task"]
