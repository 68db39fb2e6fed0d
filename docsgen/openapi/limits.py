"""Every limit the OpenAPI stage enforces, in one place (documented in docs/security.md and docs/openapi.md).

A spec may come from a URL and change without a commit: each limit turns hostile or broken input into a located
diagnostic instead of a crash, a hang or unbounded work.
"""

from __future__ import annotations

# Reading a spec.
MAX_SPEC_BYTES = 50_000_000  # a spec file or download larger than this is refused (openapi.too-big)
FETCH_DEADLINE_SECONDS = 20.0  # total time for one spec download: connect, headers and body together
MAX_NESTING = 256  # objects/arrays inside each other in a spec, checked on the text before parsing
MAX_EXPANDED_NODES = 5_000_000  # YAML aliases may not expand the document beyond this many nodes
SNIFF_BYTES = 65_536  # how much of a .json/.yaml file is read to tell whether it is an OpenAPI document

# Working on a parsed spec.
MAX_REF_HOPS = 64  # a `$ref` chain longer than this is reported and not followed further
MAX_COMPOSITION_WALK = 64  # schemas followed through allOf/anyOf/oneOf when checking `required` names
MAX_SCHEMA_PROBLEMS = 500  # validation stops reporting after this many problems in one spec
