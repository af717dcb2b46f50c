"""``python -m games.engine FILE``: replay a game script, print the final state as JSON, check its expectations."""

import json
import sys
from typing import TextIO

from .errors import EngineError
from .scripts import run_file


def main(argv: list[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run each script named in argv; return 0 when every expectation holds, 1 otherwise."""
    argv = sys.argv[1:] if argv is None else argv
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if not argv:
        stderr.write("usage: python -m games.engine SCRIPT.json [SCRIPT.json ...]\n")
        return 2
    status = 0
    for path in argv:
        try:
            outcome = run_file(path)
        except (EngineError, OSError) as exc:
            stderr.write(f"{path}: {exc}\n")
            status = 1
            continue
        if outcome.state is not None:
            stdout.write(json.dumps(outcome.state, indent=2) + "\n")
        else:
            stdout.write(json.dumps({"error": str(outcome.error)}, indent=2) + "\n")
        for mismatch in outcome.mismatches:
            stderr.write(f"{path}: MISMATCH {mismatch}\n")
        if outcome.mismatches:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
