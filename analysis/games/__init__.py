"""One module per game: rules compiled to arrays, kernel specs, tables, charts and report sections."""
