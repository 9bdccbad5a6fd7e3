"""Pure rules engines, one module per game, and the registry that names them."""
