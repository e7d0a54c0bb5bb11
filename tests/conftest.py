"""What every test shares: hooks never start graphmem's local server on their own.

``graphmem hook`` starts a background ``graphmem serve --local`` when none runs
(docs/capture.md#injection); a test that runs a hook would leave one behind. The tests
of injection turn it back on for their own processes and stop what they started.
"""

import os

os.environ["GRAPHMEM_HOOK_LOCAL"] = "off"
