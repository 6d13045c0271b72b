"""Verus surface syntax: tokens, our own syntax tree, and the parser."""
