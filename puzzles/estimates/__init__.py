"""What is known of a puzzle before it is solved: Owen's probability model (``estimate``), Selby's tilability
model and its sampler's designs, and the symmetries that distinct-solution counts divide by."""
