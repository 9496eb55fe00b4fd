"""The experiment runner: configs, instance families, cells in warm workers, the store, tables and plots."""
