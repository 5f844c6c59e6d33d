"""A hostile agent's trees, left in its folder against the harness's walks over it (red team
31). `deep FILES MIB`: FILES files and a MIB MiB file below a path past PATH_MAX. `wide FOLDERS
DEPTH`: FOLDERS folders side by side, each 2777 (set-group-ID, anyone writes), every tenth with a
4777 file, and a chain DEPTH folders deep with a 4777 file at its end. `moving SECONDS`: folders
moving between two parents without end. `acl`: a file and a folder whose ACLs let uid/gid 65534
write, and a default ACL on the folder (red team 34: ACLs survive a chown and a chmod). Then it
claims done."""

from __future__ import annotations

import json
import os
import struct
import sys
import time


def deep(files: int, mib: int) -> None:
    for level in range(17):  # 17 x 251 characters: past PATH_MAX (4,096) from anywhere
        name = f"d{level:02d}" + "x" * 247
        os.mkdir(name)
        os.chdir(name)
    for i in range(files):
        open(f"f{i}", "w").close()
    with open("big", "wb") as out:
        for _ in range(mib):
            out.write(b"\1" * (1 << 20))


def wide(folders: int, depth: int) -> None:
    os.mkdir("wide")
    chain = os.open(".", os.O_RDONLY)
    for _ in range(depth):
        os.mkdir("c", dir_fd=chain)
        below = os.open("c", os.O_RDONLY, dir_fd=chain)
        os.close(chain)
        chain = below
    os.close(os.open("f", os.O_CREAT | os.O_WRONLY, 0o600, dir_fd=chain))
    os.chmod("f", 0o4777, dir_fd=chain)
    os.close(chain)
    for i in range(folders):
        inner = os.path.join("wide", str(i))
        os.mkdir(inner)
        os.chmod(inner, 0o2777)
        if i % 10 == 9:
            os.close(os.open(os.path.join(inner, "f"), os.O_CREAT | os.O_WRONLY, 0o600))
            os.chmod(os.path.join(inner, "f"), 0o4777)


def moving(seconds: float) -> None:
    """Folders, each 40 deep, swapped between two parents as fast as it can: a walk that
    went into one comes back up into another parent than it came down from."""
    movers = 8
    for side in ("a", "b"):
        os.mkdir(side)
    for i in range(movers):
        os.makedirs(os.path.join("a", f"m{i}", *["d"] * 40))
    where = ["a"] * movers
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for i in range(movers):
            there = "b" if where[i] == "a" else "a"
            os.rename(os.path.join(where[i], f"m{i}"), os.path.join(there, f"m{i}"))
            where[i] = there


def acl() -> None:
    """ACLs granting uid and gid 65534 everything, in the kernel's xattr form (version 2, then
    tag, permissions and id for each entry): no tool needed, and an owner needs no privilege."""
    user_obj, user, group_obj, group, mask, other, nobody = 1, 2, 4, 8, 0x10, 0x20, 0xFFFFFFFF
    entries = [(user_obj, 7, nobody), (user, 7, 65534), (group_obj, 5, nobody),
               (group, 7, 65534), (mask, 7, nobody), (other, 5, nobody)]
    value = struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *e) for e in entries)
    with open("kept.sh", "w") as script:
        script.write("#!/bin/sh\necho planted\n")
    os.setxattr("kept.sh", "system.posix_acl_access", value)
    os.mkdir("drop")
    os.setxattr("drop", "system.posix_acl_access", value)
    os.setxattr("drop", "system.posix_acl_default", value)


def main() -> None:
    os.chdir(os.environ["PHONESHELL_ATTEMPT_DIR"])
    what, *args = sys.argv[1:]
    if what == "deep":
        deep(int(args[0]), int(args[1]))
    elif what == "wide":
        wide(int(args[0]), int(args[1]))
    elif what == "acl":
        acl()
    else:
        moving(float(args[0]))
    print(json.dumps({"status": "done", "summary": f"left a {what} tree"}), flush=True)


if __name__ == "__main__":
    main()
