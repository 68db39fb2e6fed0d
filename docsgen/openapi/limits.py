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

# Rendering a page (each bounds the work per page, whatever the spec holds).
MAX_ALL_OF_DEPTH = 16  # allOf inside allOf merged into one schema
# Schema tree work per page: each object expanded costs 1 + its properties and alternatives, cached or not, so
# a dense graph of alternatives (every schema a oneOf of many others) cannot make a page's work exponential.
MAX_TREE_WORK = 40_000
EXAMPLE_MAX_DEPTH = 10  # levels of a generated example value
EXAMPLE_MAX_PROPS = 200  # properties per object of a generated example
EXAMPLE_MAX_NODES = 3000  # values generated per example (dense schema graphs would grow exponentially)
PLAYGROUND_MAX_DEPTH = 4  # levels of a schema summarised for the playground
PLAYGROUND_MAX_PROPS = 80  # properties per object in the playground
PLAYGROUND_MAX_ENUM = 200  # enum values offered in the playground
PLAYGROUND_MAX_NODES = 1500  # schema nodes summarised per body or parameter
MAX_HIGHLIGHT_CHARS = 20_000  # characters of a code sample or example coloured at build time (longer: plain)
MAX_EXAMPLE_CHARS = 60_000  # characters of one example shown (the rest is cut, marked with an ellipsis)
MAX_VALUE_CHARS = 300  # characters of one default/example value shown inline
SHOWN_ENUM = 60  # enum values listed under a field ("and N more")

# Spec-derived HTML (x-mint.content) is sanitised: see docsgen/openapi/sanitize.py for the allow-lists.
