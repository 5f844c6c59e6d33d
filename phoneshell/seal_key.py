"""The signing key of runs: where it lives, reading (or making) it, and signing run.json with it.

The key is 32 random bytes in `$PHONESHELL_KEY_FILE`, else `$XDG_CONFIG_HOME/phoneshell/
run-signing.key`, else `~/.config/phoneshell/run-signing.key`, created (mode 0600, its folder
0700) on first use. An agent in the sandbox never sees it (docs/security.md).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

from phoneshell.errors import RunError
from phoneshell.records import RunManifest

KEY_ENV = "PHONESHELL_KEY_FILE"
KEY_BYTES = 32

__all__ = ["KEY_BYTES", "KEY_ENV", "key_id", "key_path", "load_key", "signature"]


def key_path() -> Path:
    """Where the signing key lives (see the module docstring)."""
    if os.environ.get(KEY_ENV):
        return Path(os.environ[KEY_ENV])
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "phoneshell" / "run-signing.key"


def load_key(create: bool = False) -> bytes:
    """The signing key; made on first use when `create`.

    Raises:
        RunError: no key (and not asked to make one), or it cannot be read or written.
    """
    path = key_path()
    if create and not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        except FileExistsError:
            pass  # another run made it a moment ago: read that one
        except OSError as exc:
            raise RunError(f"cannot create the signing key {path}: {exc.strerror or exc}",
                           hint=f"set {KEY_ENV} to a file you can write") from exc
        else:
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_hex(KEY_BYTES) + "\n")
    try:
        text = path.read_text(encoding="ascii").strip()
        key = bytes.fromhex(text)
    except FileNotFoundError:
        raise RunError(f"no signing key at {path}: runs sealed on another machine or account "
                       "cannot be verified here",
                       hint=f"point {KEY_ENV} at the key the run was sealed with") from None
    except (OSError, ValueError) as exc:
        raise RunError(f"cannot read the signing key {path}: {exc}",
                       hint=f"it holds {KEY_BYTES} bytes in hex; {KEY_ENV} names another") \
            from exc
    if len(key) != KEY_BYTES:
        raise RunError(f"the signing key {path} is not {KEY_BYTES} bytes")
    return key


def key_id(key: bytes) -> str:
    """Which key signed a seal, without revealing it."""
    return hashlib.sha256(key).hexdigest()[:16]


def signature(manifest: RunManifest, key: bytes) -> str:
    """HMAC-SHA256 over run.json as it would be written with an empty signature."""
    assert manifest.seal is not None
    blank = manifest.model_copy(update={"seal": manifest.seal.model_copy(
        update={"signature": ""})}).to_plain()
    if not manifest.seal.sequence:  # sealed before seals were numbered: signed without it
        del blank["seal"]["sequence"]
    text = json.dumps(blank, sort_keys=True, separators=(",", ":"))
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()

