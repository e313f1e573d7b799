"""The games that ship with henge, one package each (``henge/games/<id>/``).

Nothing here is imported to find them: each package offers a ``PLUGIN`` descriptor
through the ``henge.games`` entry-point group (pyproject.toml), the same way a game from
another installed package does.
"""
