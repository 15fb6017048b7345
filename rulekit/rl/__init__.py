"""Learning environments for any rule file (needs the ``rl`` extra)."""
from .catalogue import ActionCatalogue, CatalogueTooLarge
from .features import ActionFeatures, TooManyActions
from .observation import ObservationEncoder
from .vocabulary import string_vocabulary

__all__ = ["ActionCatalogue", "ActionFeatures", "CatalogueTooLarge", "ObservationEncoder", "TooManyActions",
           "string_vocabulary"]
