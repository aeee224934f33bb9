"""counter-gap: counterfactual gender-bias test sets for coreference resolution."""

__version__ = "0.1.0"
