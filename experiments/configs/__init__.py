"""The experiment configs shipped with the package (TOML files, found by name: `eternity configs`); a package only so
that a wheel carries them."""
