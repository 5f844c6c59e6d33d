"""Try the kernel's keyrings from inside the sandbox: write the user's keyring, then read it."""

import ctypes
import os
import platform
import sys

CALLS = {"x86_64": (248, 250), "aarch64": (217, 219)}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
add_key, keyctl = CALLS
key = libc.syscall(add_key, b"user", b"note-for-the-next-attempt", b"the answer", 10, -4)
said = "refused" if key == -1 and ctypes.get_errno() == 1 else f"stored {key}"
got = libc.syscall(keyctl, 0, -4, 0)  # KEYCTL_GET_KEYRING_ID of the user's keyring
said += " refused" if got == -1 and ctypes.get_errno() == 1 else f" keyring {got}"
with open(os.path.join(os.environ["PHONESHELL_ATTEMPT_DIR"], "keys.txt"), "w") as out:
    out.write(said + "\n")
sys.exit(0)
