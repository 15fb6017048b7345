"""The effect language: lark grammar, parser and compiler to closures."""
