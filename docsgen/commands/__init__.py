"""Commands beside `build`: validate, broken-links, a11y, init (and its CI recipes)."""
