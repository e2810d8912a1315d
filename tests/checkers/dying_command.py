"""A command checker that answers line by line (flushed) and, after $DYING_AT answers, kills
the claimlab process that started it (SIGKILL) a moment later: the run dies half-way."""

import json
import os
import signal
import sys
import time
from pathlib import Path

log = Path(os.environ["DYING_LOG"])
dying_at = int(os.environ.get("DYING_AT", "0"))
for n, line in enumerate(sys.stdin, 1):
    item = json.loads(line)
    with log.open("a") as f:
        f.write(item["id"] + "\n")
    print(json.dumps({"id": item["id"], "label": "SUPPORTED"}), flush=True)
    if n == dying_at:
        time.sleep(1.0)  # the answers given are read and kept meanwhile
        os.kill(os.getppid(), signal.SIGKILL)
        sys.exit(0)
