"""The effect-language grammar, installed as ``rulekit.grammar``."""
