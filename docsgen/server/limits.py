"""Default limits of the feedback server, shared by the CLI (which must not import the server stack) and the app."""

from __future__ import annotations

# Longest accepted value of each text field of a feedback entry, in characters (code points).
MAX_LENGTH = {"path": 2048, "comment": 5000, "contact": 254, "code": 20000, "filename": 255, "lang": 64}
# The longest valid entry is a code_snippet with every field at its maximum (27,367 characters). Sent as JSON
# with every character \u-escaped as a surrogate pair (12 bytes each, what json.dumps does with emoji) it takes
# about 330,000 bytes; the default leaves room for that and for the field names.
DEFAULT_MAX_BODY = 512 * 1024
DEFAULT_RATE_LIMIT = 30  # feedback POSTs per client per minute
# A deployment build runs in a child process stopped after this many seconds or above this much address space
# (RLIMIT_AS counts reserved, not used, memory: thread stacks and allocator arenas need headroom).
DEFAULT_BUILD_TIMEOUT = 900.0
DEFAULT_BUILD_MEMORY = 4 * 1024**3
