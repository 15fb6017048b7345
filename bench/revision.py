"""What a script that runs another checkout of rulekit puts after its
``sys.path.insert(0, CHECKOUT)``: that checkout's own grammar.

rulekit reads its grammar as the package ``rulekit.grammar``, which an
installed rulekit maps to the ``grammar/`` folder of the checkout it was
installed from (``[tool.setuptools.package-dir]`` in pyproject.toml).  A
script that puts another checkout first on ``sys.path`` imports that
checkout's rulekit, yet without this would parse its rule files with the
installed checkout's grammar: an older revision timed with a newer grammar.
"""

#: Python source run before ``import rulekit``: ``rulekit.grammar`` becomes
#: the ``grammar/`` folder of the checkout first on ``sys.path`` (when it has
#: one).  No braces, so it can sit inside the scripts' ``str.format`` templates.
OWN_GRAMMAR = r"""
def _own_grammar():
    import importlib.util, os, sys
    folder = os.path.join(os.path.abspath(sys.path[0]), "grammar")
    init = os.path.join(folder, "__init__.py")
    if os.path.isfile(init):
        spec = importlib.util.spec_from_file_location("rulekit.grammar", init, submodule_search_locations=[folder])
        module = importlib.util.module_from_spec(spec)
        sys.modules["rulekit.grammar"] = module
        spec.loader.exec_module(module)
_own_grammar()
"""
