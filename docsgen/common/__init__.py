"""Leaf helpers every stage may use: diagnostics, URL rules, bounded loading, package data, the theme loader."""
