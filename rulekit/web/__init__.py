"""A web table for any rule file (needs the ``web`` extra:
``pip install 'rulekit[web]'``): ``rulekit serve`` hosts matches that people
play in their browsers, each seat seeing only its own view.

The core of rulekit never imports this package.
"""
