"""Release history (notebook 12): the runs a store recorded, a figure's trend, two runs compared.

``study`` (a store read, or a SIMULATED history of four releases made when none is given; two
runs paired through the per-answer tables they wrote) and ``views`` (tables and the trend figure,
with counts). The store itself is :mod:`claimlab.io.store`; ``claimlab history`` lists it.
"""
