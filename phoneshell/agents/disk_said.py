"""What the disk watch says of a turn it stops (`bounds.DiskWatch`): why it failed for what it
took of the disk's bytes or files, or why its attempt is not scored. Words only: reads nothing.
"""
from __future__ import annotations

from phoneshell.agents.disk_share import BYTES, FILES, Share


def amount(axis: int, much: int) -> str:
    """`much` of the disk's bytes (`BYTES`) or files, said."""
    return f"{much / (1 << 20):,.1f} MiB" if axis == BYTES else f"{much:,} files"


def filled(axis: int, share: Share, free: int, by_others: int) -> str:
    """Why an unconfined turn is stopped for what it took of the disk's bytes or files."""
    also = (f"; {amount(axis, by_others)} of what it lost were written by the other turns "
            "beside it" if by_others >= (1 << 20 if axis == BYTES else 1_000) else "")
    if axis == FILES:
        return (f"it used up the files (inodes) of the disk holding the run: {free:,} free of "
                f"the {share.free_at_start:,} there were when its turn started (it may take "
                f"{share.may():,}, and is stopped below {share.floor:,} free{also})")
    return (f"it filled the disk holding the run: {free / (1 << 20):.1f} MiB free of the "
            f"{share.free_at_start / (1 << 20):.1f} MiB there were when its turn started "
            f"(it may take {share.may() >> 20:,} MiB, and is stopped below "
            f"{share.floor >> 20:,} MiB free{also})")


def took(axis: int, share: Share, own: int, free: int, back: int | None) -> str:
    """Why a confined turn that took `own` of the disk's bytes or files, more than it may,
    failed (`back`: what came back once its processes were gone, None when it was not
    looked for)."""
    came = "" if back is None else (
        f" and what came back to the disk once its processes were gone "
        f"({amount(axis, back)}, held where no name showed it)")
    if axis == FILES:
        return (f"it used up the files (inodes) of the disk holding the run: its folder, the "
                f"files it holds open or mapped{came} took {own:,} in its turn (it may take "
                f"{share.may():,}; {free:,} free of the {share.free_at_start:,} there were "
                "when it started)")
    return (f"it filled the disk holding the run: its folder, the files it holds open or "
            f"mapped{came} took {own / (1 << 20):,.1f} MiB in its turn (it may take "
            f"{share.may() >> 20:,} MiB; {free / (1 << 20):.1f} MiB "
            f"free of the {share.free_at_start / (1 << 20):.1f} MiB there were when it "
            "started)")


def stopped(axis: int, share: Share, now: tuple[int, int]) -> str:
    """Why a confined turn is stopped to see what comes back once its processes are gone."""
    what = (f"{now[BYTES] / (1 << 20):.1f} MiB" if axis == BYTES else
            f"{now[FILES]:,} files (inodes)")
    floor = f"{share.floor >> 20:,} MiB" if axis == BYTES else f"{share.floor:,} files"
    return (f"the disk holding the run fell to {what} free in its turn (it is stopped below "
            f"{floor}), more than its own writes show; it was stopped to see what comes "
            "back once its processes are gone")


def machines(folder: str, lost: float, free: float, files: int | None, seen: str, own: float,
             room_bytes: int, room_files: int) -> str:
    """Why a confined turn's attempt is not scored: the disk lost `lost` MiB to writes that are
    not its own, down to `free` MiB (and `files`, when short of them), and stayed so."""
    inodes = f" and {files:,} files (inodes)" if files is not None and files < room_files else ""
    return (f"the disk holding {folder} lost {lost:,.1f} MiB during the agent's turn"
            f"{f' ({seen})' if seen else ''}, down to {free:.1f} MiB{inodes} free "
            f"(the harness keeps {room_bytes >> 20} MiB and {room_files:,} "
            f"files to record an attempt), by writes that are not the agent's: it ran "
            f"confined, its folder, the files it holds open or mapped and what the harness "
            f"wrote for it took {own:,.1f} MiB, and the loss stayed once its processes were "
            "gone (not the agent's doing)")


def nobodys(folder: str, back: tuple[int, int]) -> str:
    """Why a confined turn stopped for disk its own writes do not show is not scored: what came
    back (`back`, bytes and files) came back while another turn on the disk ended too."""
    return (f"the disk holding {folder} fell under what the agent's turn may take of it, more "
            f"than its own writes show, and what came back once its processes were gone "
            f"({amount(BYTES, back[BYTES])}, {back[FILES]:,} files) came back while another "
            "turn on the same disk ended too: it may be either's, and is charged to neither "
            "(not the agent's doing, as far as the harness can tell)")


__all__ = ["amount", "filled", "machines", "nobodys", "stopped", "took"]
