"""Learning environments for any rule file (needs the ``rl`` extra)."""
from .catalogue import ActionCatalogue, CatalogueTooLarge

__all__ = ["ActionCatalogue", "CatalogueTooLarge"]
