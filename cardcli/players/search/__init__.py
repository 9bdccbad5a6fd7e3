"""The searching player (``--seat ismcts``): information-set Monte Carlo tree search over worlds
drawn to fit what its seat has been told."""
