"""Eliciting beta and rho from a stakeholder's answers (issue 11; empty for now).

Will hold the question engine (local questions for beta, pairwise comparisons for
(beta, rho), tangency), the interactive page and the transcript. May import
``isometrics.uncertainty``, ``isometrics.spaces`` and below, never ``evaluation`` or the
presentation layers. See ``shared/ALGORITHMS.md`` section 5.
"""
